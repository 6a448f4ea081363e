from swiggy_ui.vertical_page import render_vertical

render_vertical("food")
