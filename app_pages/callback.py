from swiggy_ui.callback import render_callback

render_callback()
