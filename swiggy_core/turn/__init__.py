"""The turn: one conversation's session, its running handle, the chat's lease, the model run.

`session.ChatSession` owns a turn from the person's message to the stored result;
`handle.TurnHandle` is a running turn a page watches; `lease.TurnGate` keeps one reply at a
time per chat across replicas; `model_turn.stream_turn` runs the model with the engine the
setup names. Approvals (open, confirm once, settle) live in `swiggy_core.approval`.
"""
