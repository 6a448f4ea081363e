from swiggy_ui.tool_bench import render_tool_bench

render_tool_bench()
