from swiggy_ui.connections import render_connections

render_connections()
