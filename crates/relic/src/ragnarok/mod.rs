//! Ragnarok Online. Spec: `../shared/specs/ragnarok-rsm-rsm2.txt`.
//! No format of this game is implemented yet; its formats join the registry as they are built.
