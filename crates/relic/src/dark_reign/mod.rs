//! Dark Reign: The Future of War. Spec: `../shared/specs/dark-reign-spr-ftg.txt`.
//! No format of this game is implemented yet; its formats join the registry as they are built.
