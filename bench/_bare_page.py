"""The baseline for bench/coldstart.py: a bare Streamlit page with a title and a chat input.

Started with the same command line as the app, so the two differ only by what the app does.
"""

import streamlit as st

st.title("Bare page")
st.chat_input("Ask the bare page…")
