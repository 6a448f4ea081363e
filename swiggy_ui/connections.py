"""The Connections page: Anthropic key and model, the Swiggy side, the address, usage."""

from __future__ import annotations

from datetime import UTC, datetime

import streamlit as st

from swiggy_app.app import REAL_SERVER_URLS
from swiggy_core.constants import CONNECTIONS_AUDIT_PAGE, KNOWN_MODELS
from swiggy_core.engine import classify_api_error, make_client
from swiggy_core.errors import ErrorCode
from swiggy_core.hooks import CallScope
from swiggy_core.hooks.audited import run_audited
from swiggy_core.logsafe import register_secret
from swiggy_core.mcp import McpCallError, call_tool
from swiggy_core.mcp.client import ToolCallResult, ToolOutput
from swiggy_core.parsers import AddressesResult, parse_tool_result
from swiggy_core.pricing import INR_PER_USD, estimate_cost, format_inr, format_usd
from swiggy_core.verticals import get_vertical
from swiggy_ui import state
from swiggy_ui.banners import coded_error, support_code
from swiggy_ui.cards import CardContext, render_result
from swiggy_ui.credentials import KEY_API_KEY, KEY_BASE_URL, KEY_SWIGGY_TOKEN, KEY_USE_SANDBOX
from swiggy_ui.diet_settings import render_diet_settings
from swiggy_ui.runtime import KEY_MODEL, KEY_SWIGGY_TOKEN_AT, Runtime, get_runtime
from swiggy_ui.safe_text import plain
from swiggy_ui.servers_panel import render_servers
from swiggy_ui.signin import render_signin
from swiggy_ui.spending_limits import render_limits

KEY_CHECK_TIMEOUT_SECONDS = 15.0


def render_connections() -> None:
    runtime = get_runtime()
    st.title("Connections")
    st.caption(f"Now: **{runtime.mode_label}**")
    _anthropic_section(runtime)
    _swiggy_section(runtime)
    render_servers(runtime)
    _address_section(runtime)
    render_diet_settings(runtime)
    render_limits(runtime)
    _usage_section(runtime)


def _anthropic_section(runtime: Runtime) -> None:
    with st.container(border=True):
        st.subheader("Anthropic")
        with st.form("anthropic-key", border=False):
            key = st.text_input(
                "API key", type="password", placeholder="sk-ant-…", key="form_api_key"
            )
            base_url = st.text_input(
                "Base URL (optional, any Anthropic-compatible endpoint)",
                value=(runtime.base_url or "")
                if runtime.credentials.key_source == "visitor"
                else "",
                key="form_base_url",
            )
            model_index = KNOWN_MODELS.index(runtime.model) if runtime.model in KNOWN_MODELS else 0
            model = st.selectbox("Model", KNOWN_MODELS, index=model_index, key="form_model")
            submitted = st.form_submit_button("Check and use", type="primary")
        if submitted:
            _use_key(key.strip(), base_url.strip() or None, model)
        if runtime.credentials.key_source == "visitor":
            st.success("Your key is set for this session only.", icon=":material/key:")
            st.button("Forget the key", key="forget-key", on_click=_forget, args=(_KEY_STATE,))
        elif runtime.credentials.key_source == "owner":
            st.info("This copy's owner provides the key for you.", icon=":material/key:")


# What "Forget" clears: the stored value and the widgets that held it.
_KEY_STATE = (KEY_API_KEY, KEY_BASE_URL, "form_api_key", "form_base_url")
_TOKEN_STATE = (KEY_SWIGGY_TOKEN, KEY_SWIGGY_TOKEN_AT, "form_swiggy_token")


def _forget(keys: tuple[str, ...]) -> None:
    """Runs before the next script run, so widget values can be cleared too."""
    for key in keys:
        st.session_state.pop(key, None)


def _visitor_base_url(runtime: Runtime) -> str:
    """Only a visitor's own URL is shown back (the owner's endpoint stays private)."""
    return (runtime.base_url or "") if runtime.credentials.key_source == "visitor" else ""


def _use_key(key: str, base_url: str | None, model: str) -> None:
    """Check the key with one cheap call; keep it only in this session's memory.

    A base URL is only ever used with the key entered beside it: the owner's key never
    goes to an address a visitor typed.
    """
    import anthropic  # the SDK loads when a key is checked, not with the page
    import httpx2

    st.session_state[KEY_MODEL] = model
    if not key and base_url:
        coded_error(
            "A custom base URL needs your own key: enter it in the key field above. (The "
            "base URL was not saved.)",
            ErrorCode.BASE_URL_NEEDS_KEY,
            icon=":material/key_off:",
        )
        return
    if not key:
        st.toast("Model saved.")
        return
    if base_url and not base_url.startswith(("http://", "https://")):
        coded_error(
            "The base URL must start with http:// or https://.",
            ErrorCode.SETTING_INVALID,
            icon=":material/error:",
        )
        return
    try:
        make_client(key, base_url, timeout=KEY_CHECK_TIMEOUT_SECONDS).models.list(limit=1)
    except (anthropic.APIError, httpx2.HTTPError) as error:
        info = classify_api_error(error)
        coded_error(info.message, info.code, icon=":material/key_off:")
        return
    register_secret(key)  # masked in every log line from now on
    st.session_state[KEY_API_KEY] = key
    st.session_state[KEY_BASE_URL] = base_url
    st.success("Key accepted. The chats now use Claude.", icon=":material/check:")


def _swiggy_section(runtime: Runtime) -> None:
    with st.container(border=True):
        st.subheader("Swiggy")
        wants_sandbox = not runtime.credentials.wants_swiggy
        use_sandbox = st.toggle(
            "Use the sandbox (no real orders)",
            value=wants_sandbox,
            key="toggle_sandbox",
            disabled=not runtime.api_key,
            help="Without an Anthropic key the offline demo always uses the sandbox.",
        )
        if runtime.api_key and use_sandbox != wants_sandbox:
            st.session_state[KEY_USE_SANDBOX] = use_sandbox
            st.rerun()
        st.caption(
            ":material/swap_horiz: The sandbox and real Swiggy are separate worlds: chats, "
            "carts, addresses and confirmations of one are never shown to or sent to the other."
        )
        if wants_sandbox:
            _sandbox_world(runtime)
        else:
            _real_world(runtime)


def _sandbox_world(runtime: Runtime) -> None:
    st.caption("Sandbox shops run on this machine: " + ", ".join(runtime.app.server_urls.values()))
    st.caption(
        "The sandbox works without signing in. Its sign-in is the same flow as Swiggy's "
        "(phone, OTP shown on the page, approve), on a sandbox account."
    )
    render_signin(runtime.identity.user_id, "sandbox", runtime.app.server_urls, runtime.settings)


def _real_world(runtime: Runtime) -> None:
    if runtime.credentials.token_source == "owner":
        st.info("This copy's owner connects Swiggy for you.", icon=":material/link:")
        return
    paste_first = render_signin(
        runtime.identity.user_id, "swiggy", dict(REAL_SERVER_URLS), runtime.settings
    )
    if runtime.app.in_sandbox:
        st.caption("Until you connect Swiggy, the shops keep using the sandbox.")
    with st.expander("Paste a token instead", expanded=paste_first):
        st.caption(
            "A Swiggy MCP token comes from any MCP client you have already signed in with "
            "(it sends it as `Authorization: Bearer …` to mcp.swiggy.com). It lasts five "
            "days and stays only in this browser session."
        )
        token = st.text_input("Swiggy MCP token", type="password", key="form_swiggy_token")
        if st.button("Use this token", key="use-token") and token.strip():
            register_secret(token.strip())
            st.session_state[KEY_SWIGGY_TOKEN] = token.strip()
            st.session_state[KEY_SWIGGY_TOKEN_AT] = datetime.now(UTC)
            st.rerun()
        if st.session_state.get(KEY_SWIGGY_TOKEN):
            st.success("Your pasted Swiggy token is set for this session.", icon=":material/key:")
            st.button(
                "Forget the token", key="forget-token", on_click=_forget, args=(_TOKEN_STATE,)
            )


def _address_section(runtime: Runtime) -> None:
    with st.container(border=True):
        st.subheader("Delivery address")
        current = state.active_address()
        if current is not None:
            st.markdown(
                f":material/location_on: **{plain(current.label or 'Address')}** · "
                + plain(current.address)
            )
        if st.button("Load my saved addresses", key="load-addresses"):
            st.session_state["loaded_addresses"] = _fetch_addresses(runtime)
        loaded = st.session_state.get("loaded_addresses")
        if isinstance(loaded, AddressesResult):
            context = CardContext(key="conn-addr", vertical=get_vertical("food"))
            render_result(loaded, context)


def _fetch_addresses(runtime: Runtime) -> AddressesResult | None:
    url = runtime.app.server_urls["instamart"]
    token = runtime.mcp_token()
    if not token:
        st.warning("Connect Swiggy first: sign in above.")
        support_code(ErrorCode.SWIGGY_SESSION_EXPIRED)
        return None
    try:
        scope = CallScope(runtime.user_id, CONNECTIONS_AUDIT_PAGE)
        info = scope.info("instamart", "get_addresses", {})
        output = run_audited(
            info,
            lambda: _as_output(call_tool(url, token, "get_addresses", {})),
            runtime.store.record_tool_call,
        )
    except McpCallError as error:
        coded_error(error.message, error.code, icon=":material/cloud_off:")
        return None
    blocks = [{"type": "text", "text": text} for text in output.texts()]
    parsed = parse_tool_result("get_addresses", blocks, "food")
    if isinstance(parsed, AddressesResult):
        return parsed
    st.warning(f"Swiggy did not return addresses: {plain(output.text[:200])}")
    support_code(ErrorCode.TOOL_VALIDATION)
    return None


def _as_output(result: ToolCallResult) -> ToolOutput:
    return ToolOutput(result.text, result.is_error, result.structured)


def _usage_section(runtime: Runtime) -> None:
    usage = state.session_usage()
    with st.container(border=True):
        st.subheader("Usage this session")
        cols = st.columns(4)
        cols[0].metric("Input tokens", f"{usage.input_tokens:,}")
        cols[1].metric("Output tokens", f"{usage.output_tokens:,}")
        cols[2].metric("Cache writes", f"{usage.cache_creation_input_tokens:,}")
        cols[3].metric("Cache reads", f"{usage.cache_read_input_tokens:,}")
        cost = estimate_cost(usage, runtime.model)
        if cost is None:
            st.caption(f"No price is known for {plain(runtime.model)}, so no cost estimate.")
            return
        st.metric("Estimated cost", f"{format_inr(cost.inr)} · {format_usd(cost.usd)}")
        free = " The offline demo itself is free." if runtime.mode == "offline_demo" else ""
        st.caption(
            f"Estimated at {plain(runtime.model)} list prices, US$1 = ₹{INR_PER_USD:g}; "
            f"your provider's bill is what counts.{free}"
        )
