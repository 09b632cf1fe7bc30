//! Riot Engine / Drakan: Order of the Flame. Spec: `../shared/specs/drakan-riot-srsc.txt`.
//! No format of this game is implemented yet; its formats join the registry as they are built.
