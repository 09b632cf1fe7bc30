//! FreeRCT. Spec: the FreeRCT RCD specification (Alberth, the version 1 era), with the FreeRCT part of CORRECTIONS.md
//! and FreeRCT's own `data_format.rst` for version 2.

pub mod rcd;
