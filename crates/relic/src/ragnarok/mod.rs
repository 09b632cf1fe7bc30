//! Ragnarok Online. Spec: `../shared/specs/ragnarok-rsm-rsm2.txt`, with the Ragnarok part of
//! `CORRECTIONS.md`.

pub mod rsm;
