"""Entry point: `streamlit run app.py` (the sandbox starts by itself when nothing is set).

The page scripts live in `app_pages/`, not `pages/`: Streamlit treats a `pages/` folder as
the old multipage layout, lists its raw file names before this script has run, and runs
those files directly (without this navigation, page config or log redaction).
"""

import streamlit as st

from swiggy_core.logsafe import install_redaction
from swiggy_core.verticals import VERTICALS
from swiggy_ui.home import shop_page

install_redaction(st.secrets)  # every log line of every logger, SDKs' included, masked
st.set_page_config(
    page_title="Swiggy assistant", page_icon=":material/shopping_cart:", layout="wide"
)

# One page per catalog entry: a vertical added there gets its page (at its slug) here.
shops = [shop_page(vertical) for vertical in VERTICALS.values()]
navigation = st.navigation(
    {
        "": [st.Page("app_pages/home.py", title="Home", icon=":material/home:", default=True)],
        "Shops": shops,
        "Settings": [
            st.Page("app_pages/connections.py", title="Connections", icon=":material/settings:"),
            st.Page("app_pages/tool_bench.py", title="Tool bench", icon=":material/build:"),
            st.Page("app_pages/activity.py", title="Activity", icon=":material/history:"),
            st.Page("app_pages/spending.py", title="Spending", icon=":material/bar_chart:"),
            # Where "Sign in with Swiggy" comes back (http://localhost:PORT/callback).
            st.Page(
                "app_pages/callback.py",
                title="Swiggy sign-in",
                url_path="callback",
                visibility="hidden",
            ),
        ],
    }
)
navigation.run()
