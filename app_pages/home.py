from swiggy_ui.home import render_home

render_home()
