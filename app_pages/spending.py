from swiggy_ui.spending_page import render_spending_page

render_spending_page()
