from swiggy_ui.activity import render_activity_page

render_activity_page()
