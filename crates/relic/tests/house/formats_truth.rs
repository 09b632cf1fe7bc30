//! The registry tells the truth: every `--to` target a format advertises (`Format::targets_for`, what
//! `relic formats` lists and what `convert` checks a lone file against) converts a sample of that format
//! with no failure. Samples are converted in a copy of their folder, so a file finds what lies beside it
//! (an `.anm` its figure); a conversion that needs a companion the samples name differently gets it under
//! the name it looks for (an ACT's sprite). Targets that depend on what a file holds (a Drakan resource
//! file converts to what its records are) need one sample that makes them, not every sample.

use std::path::{Path, PathBuf};

use relic::ops::{self, ConvertRequest, Quiet};

/// Companions copied beside a sample under the name its conversion looks for: (sample, file, as).
const COMPANIONS: &[(&str, &str, &str)] = &[("sample.act", "sprite.spr", "sample.spr")];

/// Advertised, but no sample holds one: (format, target, why it is still listed).
const NO_SAMPLE: &[(&str, &str, &str)] =
    &[("drakan-srsc", "dls", "a DLS string record (RIFF `DLS `) is saved as .dls; no sample resource file holds one")];

fn samples() -> Vec<PathBuf> {
    let root = crate::common::samples_dir();
    walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect()
}

/// A copy of `sample`'s folder with its companions, and the sample's path in it.
fn staged(sample: &Path) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let folder = sample.parent().unwrap();
    for entry in std::fs::read_dir(folder).unwrap().flatten().filter(|e| e.path().is_file()) {
        std::fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
    }
    let name = sample.file_name().unwrap().to_string_lossy().into_owned();
    for (_, file, to) in COMPANIONS.iter().filter(|(of, _, _)| *of == name) {
        std::fs::copy(folder.join(file), dir.path().join(to)).unwrap();
    }
    let path = dir.path().join(&name);
    (dir, path)
}

#[test]
fn every_advertised_target_converts_a_sample() {
    // (format, target) → the samples it failed on; removed once one sample makes it.
    let mut unmade: std::collections::BTreeMap<(&str, &str), Vec<String>> = Default::default();
    let mut made = std::collections::BTreeSet::new();
    for sample in samples() {
        let Ok(Some((format, _))) = relic::registry::identify_path(&sample) else { continue };
        let (_dir, path) = staged(&sample);
        for to in format.targets_for(&path.to_string_lossy()) {
            let out = tempfile::tempdir().unwrap();
            let req = ConvertRequest { to: Some(to.to_string()), ..Default::default() };
            let report = ops::convert(std::slice::from_ref(&path), out.path(), &req, &Quiet);
            if report.failures.is_empty() && !report.outputs.is_empty() {
                made.insert((format.id, to));
            } else {
                unmade.entry((format.id, to)).or_default().push(format!("{}: {:?}", sample.display(), report.failures));
            }
        }
    }
    let wrong: Vec<String> = unmade
        .iter()
        .filter(|(key, _)| !made.contains(*key))
        .filter(|((id, to), _)| !NO_SAMPLE.iter().any(|(i, t, _)| i == id && t == to))
        .map(|((id, to), why)| format!("{id} --to {to}: {why:?}"))
        .collect();
    assert!(wrong.is_empty(), "advertised, but no sample converts:\n{}", wrong.join("\n"));
    // Every format met among the samples made something (formats only met inside archives are converted
    // as entries there).
    for (id, _) in unmade.keys() {
        assert!(made.iter().any(|(m, _)| m == id), "no sample of {id} converted");
    }
    assert!(made.len() > 50, "{}", made.len());
}

/// A format that converts entry by entry (a plain RES) or to what it is (every other format) makes every
/// advertised target of every one of its samples, except targets that need a companion no sample has.
#[test]
fn ei_samples_make_every_advertised_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/evil_islands");
    let mut tried = 0;
    for entry in std::fs::read_dir(&root).unwrap().flatten() {
        let sample = entry.path();
        let Ok(Some((format, _))) = relic::registry::identify_path(&sample) else { continue };
        let (_dir, path) = staged(&sample);
        for to in format.targets_for(&path.to_string_lossy()) {
            let out = tempfile::tempdir().unwrap();
            let req = ConvertRequest { to: Some(to.to_string()), ..Default::default() };
            let report = ops::convert(std::slice::from_ref(&path), out.path(), &req, &Quiet);
            assert!(report.failures.is_empty(), "{} --to {to}: {:?}", sample.display(), report.failures);
            tried += 1;
        }
    }
    assert!(tried >= 40, "{tried}");
}

/// What `relic formats` says of `.anm` and `.bon` files: bone offsets make JSON only; a part's animation
/// makes JSON and (with its figure beside it) glTF; a `.anm` set and a `.mod` convert whole to a scene.
#[test]
fn anm_and_bon_targets_are_the_ones_that_work() {
    let find = |id: &str| relic::registry::FORMATS.iter().find(|f| f.id == id).unwrap();
    assert_eq!(find("ei-bon").targets(), ["json"]);
    assert_eq!(find("ei-anm").targets(), ["json", "glb", "gltf"]);
    assert!(find("ei-bon").capabilities().convert && find("ei-anm").capabilities().convert);
    let res = find("ei-res");
    assert_eq!(res.targets_for("unit.anm"), ["json", "glb", "gltf"]);
    assert_eq!(res.targets_for("unit.mod"), ["json", "glb", "gltf"]);
    assert_eq!(res.targets_for("unit.bon"), ["json"]);
    assert!(res.targets_for("data.res").contains(&"png"));
    assert!(!find("drakan-srsc").targets().contains(&"csv"));
}
