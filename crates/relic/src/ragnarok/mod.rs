//! Ragnarok Online. Spec: `../shared/specs/ragnarok-rsm-rsm2.txt` (models); GRF archives follow the public
//! descriptions of version 0x200 (see [`grf`]).

pub mod grf;
