//! Drakan scenes: an SRSC file's models, characters (with the animations they name) and level layers
//! convert to glTF scenes without panicking, and every scene they give exports to a GLB the exporter
//! accepts (a converter never hands the exporter a scene glTF cannot hold). The input is also the
//! database's `.txd` and `.adb`, so one file with model, texture and animation records reaches textures,
//! skins and clips.
#![no_main]

use std::path::PathBuf;

use libfuzzer_sys::{fuzz_mutator, fuzz_target};
use relic::asset::Asset;
use relic::drakan::records::texture::ChannelOrder;
use relic::drakan::scene::{self, skeleton::AnimationSource, textures::TextureSource};
use relic::drakan::srsc::{self, Context};

fuzz_target!(|data: &[u8]| {
    let Ok(file) = srsc::parse(data) else { return };
    let dir = PathBuf::from("/nonexistent/relic-fuzz");
    let ctx = Context {
        stem: "fuzz".into(),
        extension: "mod".into(),
        db: None,
        dir: Some(dir.clone()),
        whole_database: false,
        confine: None,
    };
    let mut textures = TextureSource::new(ChannelOrder::Rgba);
    textures.give(dir.join("fuzz.txd"), data.to_vec());
    let mut anims = AnimationSource::default();
    anims.give(dir.join("fuzz.adb"), data.to_vec());
    let mut listing = Vec::new();
    let assets = scene::convert_with(&file, &ctx, &Default::default(), &mut textures, &mut anims, &mut listing);
    for asset in assets {
        match &asset.asset {
            Asset::Scene(s) => {
                if let Err(e) = relic::export::gltf::to_glb(s) {
                    panic!("a converted scene does not export: {e}");
                }
            }
            other => {
                for ext in relic::export::extensions_for(other) {
                    let _ = relic::export::export(other, Some(ext), "fuzz");
                }
            }
        }
    }
});

// Structure moves on the drakan_scene input (see `relic_fuzz::mutate::srsc`), else libFuzzer's byte mutation.
fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
    relic_fuzz::mutate::run(data, size, max_size, seed, relic_fuzz::mutate::srsc)
});
