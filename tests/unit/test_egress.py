"""Which addresses a person's server may use: every form of a non-public address is refused.

Names are answered by stub resolvers; no test here looks a name up for real.
"""

from __future__ import annotations

import socket

import pytest

from swiggy_core.constants import ALLOW_PRIVATE_SERVERS_ENV
from swiggy_core.errors import ErrorCode, SwiggyAssistantError
from swiggy_core.mcp.egress import HostRefused, check_host, dial_addresses, ip_literal

REFUSED_HOSTS = [
    # loopback, in every spelling getaddrinfo accepts
    ("127.0.0.1", "own machine"),
    ("127.9.9.9", "own machine"),
    ("[::1]", "own machine"),
    ("::1", "own machine"),
    ("2130706433", "own machine"),
    ("0x7f.1", "own machine"),
    ("0x7F000001", "own machine"),
    ("017700000001", "own machine"),
    ("0177.0.0.1", "own machine"),
    ("127.1", "own machine"),
    ("127.0.0.1.", "own machine"),
    ("::ffff:127.0.0.1", "own machine"),
    ("[::ffff:7f00:1]", "own machine"),
    ("::127.0.0.1", "own machine"),
    ("64:ff9b::127.0.0.1", "own machine"),
    ("2002:7f00:1::", "own machine"),
    # link-local and the cloud metadata service
    ("169.254.169.254", "link-local"),
    ("fe80::1", "link-local"),
    ("fe80::1%eth0", "link-local"),
    ("::ffff:169.254.169.254", "link-local"),
    # private networks
    ("10.0.0.5", "private network"),
    ("172.16.4.2", "private network"),
    ("172.31.255.255", "private network"),
    ("192.168.1.1", "private network"),
    ("::ffff:10.0.0.5", "private network"),
    ("64:ff9b::a00:5", "private network"),
    ("fc00::1", "private network"),
    ("fd12:3456::1", "private network"),
    # shared carrier space
    ("100.64.0.1", "shared network"),
    ("100.127.255.254", "shared network"),
    # nothing that is a real public host
    ("0.0.0.0", "not public"),
    ("0", "not public"),
    ("::", "not public"),
    ("224.0.0.1", "not public"),
    ("239.255.255.250", "not public"),
    ("ff02::1", "not public"),
    ("255.255.255.255", "not public"),
    ("240.0.0.1", "not public"),
    ("192.0.2.10", "not public"),
    ("2001:db8::1", "not public"),
    ("fec0::1", "not public"),
    ("64:ff9b:1::1", "not public"),
    # names that only ever mean the host or its network
    ("localhost", "own machine"),
    ("LOCALHOST.", "own machine"),
    ("api.localhost", "own machine"),
    ("metadata.google.internal", "private network"),
    ("printer.local", "private network"),
]

PUBLIC_HOSTS = ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "64:ff9b::5db8:d822"]


def nowhere(host: str) -> list[str]:
    raise AssertionError(f"{host} must be judged without a lookup")


@pytest.mark.parametrize(("host", "reason"), REFUSED_HOSTS)
def test_each_non_public_host_is_refused_with_its_code_and_only_the_host_named(
    host: str, reason: str
) -> None:
    for check in (lambda: check_host(host, nowhere), lambda: dial_addresses(host, nowhere)):
        with pytest.raises(SwiggyAssistantError) as caught:
            check()
        refusal = caught.value
        assert isinstance(refusal, HostRefused)
        assert refusal.code == ErrorCode.SERVER_HOST_REFUSED == "E-3209"
        assert reason in refusal.message and f"({host})" in refusal.message
        assert refusal.message.endswith("this app only connects your servers to public addresses.")


def test_the_message_reads_as_the_person_expects() -> None:
    with pytest.raises(HostRefused) as caught:
        check_host("10.0.0.5")
    assert caught.value.message == (
        "This server's address is on a private network (10.0.0.5); "
        "this app only connects your servers to public addresses."
    )


@pytest.mark.parametrize("host", PUBLIC_HOSTS)
def test_public_addresses_pass_and_are_dialled_as_written(host: str) -> None:
    check_host(host, nowhere)
    assert dial_addresses(host, nowhere) == [str(ip_literal(host))]


def test_other_ipv4_spellings_are_dialled_at_the_address_they_mean() -> None:
    assert dial_addresses("1572395042", nowhere) == ["93.184.216.34"]
    assert dial_addresses("0x5d.0xb8.0xd8.0x22", nowhere) == ["93.184.216.34"]
    assert ip_literal("dead.beef") is None  # hex digits alone make a name, not an address


def test_a_name_is_refused_when_any_of_its_addresses_is_not_public() -> None:
    answers = {"shop.example": ["93.184.216.34", "10.0.0.5"], "ok.example": ["93.184.216.34"]}
    with pytest.raises(HostRefused) as caught:
        check_host("shop.example", answers.__getitem__)
    assert "(shop.example)" in caught.value.message and "10.0.0.5" not in caught.value.message
    with pytest.raises(HostRefused):
        dial_addresses("shop.example", answers.__getitem__)
    check_host("ok.example", answers.__getitem__)
    assert dial_addresses("ok.example", answers.__getitem__) == ["93.184.216.34"]


@pytest.mark.parametrize(
    "answer", ["127.0.0.1", "::ffff:127.0.0.1", "169.254.169.254", "100.64.0.1", "not-an-ip"]
)
def test_a_name_resolving_to_a_non_public_address_is_refused(answer: str) -> None:
    def resolve(host: str) -> list[str]:
        assert host == "rebind.example"  # asked with the name, brackets and root dot gone
        return [answer]

    for check in (check_host, dial_addresses):
        with pytest.raises(HostRefused) as caught:
            check("Rebind.Example.", resolve)
        assert "(Rebind.Example.)" in caught.value.message
        assert answer not in caught.value.message


def test_a_name_that_does_not_resolve_passes_the_check_but_cannot_be_dialled() -> None:
    def unknown(host: str) -> list[str]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    check_host("gone.example", unknown)  # the dial checks again, whatever it finds then
    with pytest.raises(OSError):
        dial_addresses("gone.example", unknown)
    with pytest.raises(OSError):
        dial_addresses("empty.example", lambda host: [])


def test_without_a_resolver_a_name_is_judged_by_itself() -> None:
    check_host("mcp.example.com", None)
    with pytest.raises(HostRefused):
        check_host("localhost", None)


def test_the_operator_switch_skips_the_checks_and_nothing_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(ALLOW_PRIVATE_SERVERS_ENV, "true")
    check_host("127.0.0.1", nowhere)
    check_host("localhost", {"localhost": ["127.0.0.1"]}.__getitem__)
    assert dial_addresses("0x7f.1", nowhere) == ["127.0.0.1"]
    assert dial_addresses("intranet.example", lambda host: ["10.0.0.5"]) == ["10.0.0.5"]
    monkeypatch.setenv(ALLOW_PRIVATE_SERVERS_ENV, "no")
    with pytest.raises(HostRefused):
        check_host("127.0.0.1", nowhere)
