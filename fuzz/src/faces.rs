//! The one place the fuzz crate reaches a format's registry faces (`Format`'s `Document`, `Convert`,
//! `Archive` and `Pack`): when they change, this file changes and the targets, checks and extras above it
//! stay as they are.

use relic::asset::{Entry, NamedAsset};
use relic::registry::{Claim, ConvertOptions, Format, PackRequest};
use relic::Result;

/// A format's faces as a file of a given name reads them (the name picks the layout of formats without
/// magic, `.udb` vs `.idb`, and the extension archive entries inherit).
#[derive(Clone, Copy)]
pub struct Faces {
    pub format: &'static Format,
    codec: &'static Format,
}

impl Faces {
    pub fn of(format: &'static Format, name: &str) -> Faces {
        Faces { format, codec: format.for_name(name) }
    }

    pub fn info(&self, data: &[u8]) -> Result<serde_json::Value> {
        self.codec.info(data)
    }

    pub fn to_json(&self, data: &[u8]) -> Result<serde_json::Value> {
        self.codec.to_json(data)
    }

    /// Whether the format writes files back (from its JSON, a folder or another input).
    pub fn writes(&self) -> bool {
        self.format.capabilities().write
    }

    pub fn write_json(&self, value: serde_json::Value) -> Result<Vec<u8>> {
        self.codec.from_json(value, &Default::default())
    }

    /// An archive's entries; `None` when the format is no archive.
    pub fn entries<'a>(&self, data: &'a [u8], name: &str) -> Option<Result<Vec<Entry<'a>>>> {
        self.codec.entries(data, name)
    }

    /// The options an archive lends its entries (an FTG's palette); `None` when it lends none.
    pub fn entry_options(&self, data: &[u8], opts: &ConvertOptions) -> Option<ConvertOptions> {
        self.codec.entry_options(&relic::registry::ConvertInput::new(data, opts))
    }

    pub fn convert(&self, data: &[u8], opts: &ConvertOptions) -> Result<Vec<NamedAsset>> {
        self.codec.convert(&relic::registry::ConvertInput::new(data, opts))
    }

    /// The extensions of the inputs besides JSON that `relic pack` makes a file of this format from.
    pub fn pack_sources(&self) -> &'static [&'static str] {
        self.codec.pack_sources
    }

    pub fn pack_input(&self, input_name: &str, content: &[u8], request: &PackRequest) -> Result<Vec<u8>> {
        self.codec.pack_input(input_name, content, request)
    }

    /// Every file name that reads differently for this format: `fuzz.<ext>` for each extension, each whole
    /// name and extension it claims, then `fuzz` (no extension: an unknown layout of a format without magic).
    pub fn names(format: &'static Format) -> Vec<String> {
        let mut out: Vec<String> = format.extensions.iter().map(|e| format!("fuzz.{e}")).collect();
        for claim in format.probe.claims {
            let name = match claim {
                Claim::Name(name) => (*name).to_string(),
                Claim::Extension(ext) => format!("fuzz.{ext}"),
            };
            if !out.contains(&name) {
                out.push(name);
            }
        }
        out.push("fuzz".into());
        out
    }
}
