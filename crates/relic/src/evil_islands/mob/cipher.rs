//! The level-script cipher of SS_TEXT nodes (spec "MOB", "String decode"). Written by hand because it is
//! the game's own scheme, found in no crate: a 32-bit state starts at the key stored in the node; for each
//! byte the state steps `key += ((((key·13) << 4) + key) << 8) − key)·4 + 2531011` (that is
//! `key = key·214013 + 2531011`, the MSVC `rand` generator) and the byte is XORed with bits 16..23 of the
//! new state. XOR makes the same function encrypt and decrypt.

/// The state after one step.
fn step(key: u32) -> u32 {
    // The spec's expression, kept in its own form (wrapping 32-bit arithmetic as in the game).
    let inner = (key.wrapping_mul(13) << 4).wrapping_add(key);
    key.wrapping_add(((inner << 8).wrapping_sub(key)).wrapping_mul(4).wrapping_add(2_531_011))
}

/// The first `n` keystream bytes for `key`.
pub fn keystream(key: u32, n: usize) -> Vec<u8> {
    let mut state = key;
    (0..n)
        .map(|_| {
            state = step(state);
            (state >> 16) as u8
        })
        .collect()
}

/// Enciphers or deciphers `data` in place with `key`.
pub fn apply(key: u32, data: &mut [u8]) {
    let mut state = key;
    for b in data {
        state = step(state);
        *b ^= (state >> 16) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_is_the_msvc_generator() {
        for key in [0u32, 1, 0x7DA7, 0xFFFF_FFFF, 0x1234_5678] {
            assert_eq!(step(key), key.wrapping_mul(214_013).wrapping_add(2_531_011));
        }
    }

    #[test]
    fn apply_is_an_involution() {
        let mut data = b"GlobalVars ( )".to_vec();
        apply(42, &mut data);
        assert_ne!(&data, b"GlobalVars ( )");
        apply(42, &mut data);
        assert_eq!(&data, b"GlobalVars ( )");
    }
}
