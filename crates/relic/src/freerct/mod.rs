//! FreeRCT. Spec: `../shared/specs/freerct-rcd.txt`.
//! No format of this game is implemented yet; its formats join the registry as they are built.
