//! Integration tests across tooldef's crates live in `tests/`.
