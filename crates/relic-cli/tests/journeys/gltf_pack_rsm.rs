//! A modder's journey from a Ragnarok model to glTF and back through the `relic` binary: `relic convert`
//! a sample RSM, `relic pack ro-rsm x.glb -o new.rsm` (1.4, and 2.3 with `--version 0x203`), `relic convert`
//! the new file, and the same world geometry; an existing output (or texture beside it) is refused
//! without `--force`; the textures a glTF embeds are written beside the model.

use std::path::{Path, PathBuf};

use relic::asset::{Scene, Transform};

use crate::common::{relic, stderr_of};

fn sample(name: &str) -> PathBuf {
    crate::common::samples().join("ragnarok").join(name)
}

/// Column-major 4×4 matrices, as glTF stores them.
type Mat4 = [f64; 16];
const IDENTITY: Mat4 = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0];

fn mul(a: &Mat4, b: &Mat4) -> Mat4 {
    std::array::from_fn(|i| {
        let (col, row) = (i / 4, i % 4);
        (0..4).map(|k| a[k * 4 + row] * b[col * 4 + k]).sum()
    })
}

fn local(t: &Transform) -> Mat4 {
    match t {
        Transform::Matrix(m) => m.map(f64::from),
        Transform::Trs { translation: t, rotation: q, scale: s } => {
            let [x, y, z, w] = q.map(f64::from);
            let r = [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y + z * w),
                2.0 * (x * z - y * w),
                2.0 * (x * y - z * w),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z + x * w),
                2.0 * (x * z + y * w),
                2.0 * (y * z - x * w),
                1.0 - 2.0 * (x * x + y * y),
            ];
            let mut m = IDENTITY;
            for c in 0..3 {
                for row in 0..3 {
                    m[c * 4 + row] = r[c * 3 + row] * f64::from(s[c]);
                }
                m[12 + c] = f64::from(t[c]);
            }
            m
        }
    }
}

fn point(m: &Mat4, p: [f32; 3]) -> [f64; 3] {
    let p = p.map(f64::from);
    std::array::from_fn(|r| m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r])
}

fn determinant3(m: &Mat4) -> f64 {
    m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2])
}

/// Every triangle's world positions at rest, rounded to 1e-5 and sorted (winding as rendered).
fn triangles(glb: &Path) -> Vec<[[i64; 3]; 3]> {
    let scene: Scene = relic::import::gltf::read(&std::fs::read(glb).unwrap(), glb).unwrap();
    let mut out = Vec::new();
    let mut stack: Vec<(usize, Mat4)> = scene.roots.iter().map(|&r| (r, IDENTITY)).collect();
    while let Some((n, up)) = stack.pop() {
        let w = mul(&up, &local(&scene.nodes[n].transform));
        if let Some(m) = scene.nodes[n].mesh {
            for p in &scene.meshes[m].primitives {
                for t in p.indices.chunks_exact(3) {
                    let mut tri: [[i64; 3]; 3] = std::array::from_fn(|k| {
                        point(&w, p.positions[t[k] as usize]).map(|x| (x * 1e5).round() as i64)
                    });
                    if determinant3(&w) < 0.0 {
                        tri.swap(1, 2);
                    }
                    let first = (0..3).min_by_key(|&k| tri[k]).unwrap();
                    tri.rotate_left(first);
                    out.push(tri);
                }
            }
        }
        stack.extend(scene.nodes[n].children.iter().map(|&c| (c, w)));
    }
    out.sort();
    out
}

fn info_version(file: &Path) -> String {
    let out = relic().args(["info", "--json"]).arg(file).assert().success().get_output().stdout.clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    v["version"].as_str().unwrap_or_else(|| v[0]["version"].as_str().unwrap()).to_string()
}

#[test]
fn convert_pack_convert_gives_the_same_model_in_both_versions() {
    let dir = tempfile::tempdir().unwrap();
    for (name, rsm2) in [("pyramid.rsm", false), ("pyramid.rsm2", true)] {
        let first = dir.path().join(format!("first-{name}"));
        relic().args(["convert", "-o"]).arg(&first).arg(sample(name)).assert().success();
        let glb = first.join(format!("{name}.glb"));
        assert!(glb.exists(), "{}", glb.display());
        let want = triangles(&glb);
        assert_eq!(want.len(), 6);

        for (version, ext, expected) in
            [(None, "rsm", "1.4"), (Some("0x203"), "rsm2", "2.3"), (Some("0x104"), "rsm", "1.4")]
        {
            let out = dir.path().join(format!("new-{name}-{}.{ext}", version.unwrap_or("default")));
            let mut cmd = relic();
            cmd.args(["pack", "ro-rsm"]).arg(&glb).arg("-o").arg(&out);
            if let Some(v) = version {
                cmd.args(["--version", v]);
            }
            cmd.assert().success();
            assert_eq!(info_version(&out), expected);
            let second = dir.path().join(format!("second-{name}-{}", version.unwrap_or("default")));
            relic().args(["convert", "-o"]).arg(&second).arg(&out).assert().success();
            let got = triangles(&second.join(format!("{}.glb", out.file_name().unwrap().to_string_lossy())));
            // A 2.x model written as 1.4 is centred by its reader (as the game places it): compare shapes
            // moved to the same bottom centre.
            let centred = |tris: &[[[i64; 3]; 3]]| {
                let all: Vec<[i64; 3]> = tris.iter().flatten().copied().collect();
                let min = |k: usize| all.iter().map(|p| p[k]).min().unwrap();
                let max = |k: usize| all.iter().map(|p| p[k]).max().unwrap();
                let shift = [(min(0) + max(0)) / 2, min(1), (min(2) + max(2)) / 2];
                let mut v: Vec<[[i64; 3]; 3]> =
                    tris.iter().map(|t| t.map(|p| [p[0] - shift[0], p[1] - shift[1], p[2] - shift[2]])).collect();
                v.sort();
                v
            };
            if rsm2 && expected == "1.4" {
                assert_eq!(centred(&got), centred(&want), "{name} → {expected}");
            } else {
                assert_eq!(got, want, "{name} → {expected}");
            }
        }
        // The output exists: refused without --force, written with it.
        let out = dir.path().join(format!("new-{name}-default.rsm"));
        let refused = relic().args(["pack", "ro-rsm"]).arg(&glb).arg("-o").arg(&out).assert().failure();
        assert!(stderr_of(&refused).contains("--force"), "{}", stderr_of(&refused));
        relic().args(["pack", "ro-rsm", "--force"]).arg(&glb).arg("-o").arg(&out).assert().success();
    }
    // A version pack does not write, and a version that disagrees with the name is noted.
    let glb = dir.path().join("first-pyramid.rsm/pyramid.rsm.glb");
    let bad = relic()
        .args(["pack", "ro-rsm", "--version", "0x105"])
        .arg(&glb)
        .arg("-o")
        .arg(dir.path().join("x.rsm"))
        .assert()
        .failure();
    assert!(stderr_of(&bad).contains("0x104"), "{}", stderr_of(&bad));
    let odd = dir.path().join("odd.rsm");
    let noted = relic().args(["pack", "ro-rsm", "--version", "0x203"]).arg(&glb).arg("-o").arg(&odd).assert().success();
    assert!(stderr_of(&noted).contains(".rsm2"), "{}", stderr_of(&noted));
    assert_eq!(info_version(&odd), "2.3");
}

#[test]
fn embedded_textures_are_written_beside_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("hand.glb");
    std::fs::write(&glb, relic::testing::hand_gltf::box_two_bones_glb()).unwrap();
    let out = dir.path().join("hand.rsm");
    let done = relic().args(["pack", "ro-rsm"]).arg(&glb).arg("-o").arg(&out).assert().success();
    let err = stderr_of(&done);
    assert!(err.contains("skin.bmp"), "{err}");
    assert!(err.contains("rotation keys only"), "{err}");
    let texture = dir.path().join("skin.bmp");
    assert!(std::fs::read(&texture).unwrap().starts_with(b"BM"));
    // The texture converts as a Ragnarok texture; the model names it.
    relic().arg("info").arg(&texture).assert().success();
    let info = relic().args(["info", "--json"]).arg(&out).assert().success().get_output().stdout.clone();
    assert!(String::from_utf8_lossy(&info).contains("skin.bmp"));
    // Packing again: the texture beside it exists. Holding the same bytes, it is left as it is (a texture
    // two models share); changed, it is refused without --force and nothing is written.
    std::fs::remove_file(&out).unwrap();
    relic().args(["pack", "ro-rsm"]).arg(&glb).arg("-o").arg(&out).assert().success();
    std::fs::remove_file(&out).unwrap();
    std::fs::write(&texture, b"BM edited by hand").unwrap();
    let refused = relic().args(["pack", "ro-rsm"]).arg(&glb).arg("-o").arg(&out).assert().failure();
    assert!(stderr_of(&refused).contains("skin.bmp"), "{}", stderr_of(&refused));
    assert!(!out.exists());
    assert_eq!(std::fs::read(&texture).unwrap(), b"BM edited by hand");
    relic().args(["pack", "ro-rsm", "--force"]).arg(&glb).arg("-o").arg(&out).assert().success();
    let rewritten = std::fs::read(&texture).unwrap();
    assert!(rewritten.starts_with(b"BM") && rewritten != b"BM edited by hand");

    // The same model as `.gltf` JSON with its buffer beside it, to 2.3, sharing the texture.
    let gltf = dir.path().join("hand.gltf");
    let (json, bin) = relic::testing::hand_gltf::box_two_bones_gltf("hand.bin");
    std::fs::write(&gltf, json).unwrap();
    std::fs::write(dir.path().join("hand.bin"), bin).unwrap();
    let out2 = dir.path().join("hand.rsm2");
    relic().args(["pack", "ro-rsm"]).arg(&gltf).arg("-o").arg(&out2).assert().success();
    assert_eq!(info_version(&out2), "2.3");
}
