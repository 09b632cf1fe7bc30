//! `relic._relic`, the native half of the `relic` Python package: a thin layer over the library's front
//! door ([`relic::GameFile`], [`relic::write_json`], [`relic::ops`]). No format logic lives here; every call
//! that reads, converts or writes releases the GIL while relic works. The pure-Python half
//! (`python/relic/__init__.py`) re-exports it with the type stubs and docstrings users see.

use std::path::PathBuf;

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use relic::evil_islands::FigureSettings;
use relic::ragnarok::act::HeadSettings;
use relic::registry::ConvertOptions;
use relic::{Error as LibError, GameFile};

pyo3::create_exception!(relic, Error, PyException, "An error of relic: `.format`, `.field` and `.offset` say where in the file (None when not located), `.kind` what went wrong.");
pyo3::create_exception!(relic, InvalidData, Error, "The bytes do not follow the format (kind `invalid`).");
pyo3::create_exception!(
    relic,
    LimitError,
    Error,
    "A size or count is over what the bytes or a sane bound allow (kind `limit`)."
);
pyo3::create_exception!(
    relic,
    Unsupported,
    Error,
    "Valid, but relic does not implement it (yet), or not a format relic knows (kind `unsupported`)."
);
pyo3::create_exception!(relic, Refused, Error, "A request relic will not carry out: an existing file without force, an unsafe path, a bad argument (kind `refused`).");

/// A relic error as the Python exception of its kind, with `format`, `field`, `offset` and `kind` set.
fn to_py(error: LibError) -> PyErr {
    Python::with_gil(|py| {
        let message = error.to_string();
        let (kind, err) = match error.without_file() {
            LibError::InvalidData { .. } => ("invalid", InvalidData::new_err(message)),
            LibError::Limit { .. } => ("limit", LimitError::new_err(message)),
            LibError::Unsupported(_) => ("unsupported", Unsupported::new_err(message)),
            LibError::Refused(_) => ("refused", Refused::new_err(message)),
            LibError::TooDeep(_) => ("too_deep", Error::new_err(message)),
            LibError::Io { .. } | LibError::InFile { .. } => ("io", Error::new_err(message)),
        };
        let location = error.location();
        let value = err.value(py);
        let set = |name: &str, v: PyObject| value.setattr(name, v);
        let attrs = (|| -> PyResult<()> {
            set("kind", kind.into_pyobject(py)?.into_any().unbind())?;
            set("format", location.map(|l| l.format).into_pyobject(py)?.unbind())?;
            set("field", location.map(|l| l.field.clone()).into_pyobject(py)?.unbind())?;
            set("offset", location.map(|l| l.offset).into_pyobject(py)?.unbind())?;
            Ok(())
        })();
        match attrs {
            Ok(()) => err,
            Err(e) => e,
        }
    })
}

fn json_to_py(py: Python<'_>, value: &serde_json::Value) -> PyResult<PyObject> {
    let text = serde_json::to_string(value).map_err(|e| Error::new_err(e.to_string()))?;
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

fn py_to_json(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    let text: String = py.import("json")?.call_method1("dumps", (value,))?.extract()?;
    serde_json::from_str(&text).map_err(|e| Refused::new_err(format!("not a JSON document: {e}")))
}

/// Runs `work` with the GIL released, its relic error raised as the Python exception of its kind.
fn unlocked<T: Send>(py: Python<'_>, work: impl FnOnce() -> relic::Result<T> + Send) -> PyResult<T> {
    py.allow_threads(work).map_err(to_py)
}

/// The bytes of a `bytes`, `bytearray`, `memoryview` or other buffer (copied once, not item by item).
fn buffer(data: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = data.downcast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    let copied = data.py().import("builtins")?.getattr("bytes")?.call1((data,))?;
    Ok(copied.downcast::<PyBytes>()?.as_bytes().to_vec())
}

fn bytes<'py>(py: Python<'py>, data: &[u8]) -> Bound<'py, PyBytes> {
    PyBytes::new(py, data)
}

/// A game file opened by relic (`relic.open(path)`, `File.from_bytes(data, name)`).
#[pyclass(module = "relic", name = "File", frozen)]
struct PyFile {
    file: GameFile,
}

#[pymethods]
impl PyFile {
    /// Bytes already in memory, named `name` (formats without magic are known by their name:
    /// `items.idb`). `format` reads them as that format id whatever they look like.
    #[staticmethod]
    #[pyo3(signature = (data, name = "", format = None))]
    fn from_bytes(py: Python<'_>, data: &Bound<'_, PyAny>, name: &str, format: Option<&str>) -> PyResult<PyFile> {
        let data = buffer(data)?;
        let name = name.to_string();
        let format = format.map(str::to_string);
        let file = unlocked(py, move || match format {
            Some(f) => GameFile::from_bytes_as(name, data, &f),
            None => GameFile::from_bytes(name, data),
        })?;
        Ok(PyFile { file })
    }

    /// The format id the file was identified as (`ro-rsm`, `ei-res`, …).
    #[getter]
    fn format(&self) -> &'static str {
        self.file.format().id
    }

    /// The path it was opened from, or the name it was given (an entry's stored name).
    #[getter]
    fn name(&self) -> &str {
        self.file.name()
    }

    /// Whether it holds entries (`entries()`).
    #[getter]
    fn is_archive(&self) -> bool {
        self.file.is_archive()
    }

    /// The file's bytes.
    fn bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes(py, self.file.bytes())
    }

    /// The header summary `relic info` prints, as a dict.
    fn info(&self, py: Python<'_>) -> PyResult<PyObject> {
        let value = unlocked(py, || self.file.info())?;
        json_to_py(py, &value)
    }

    /// The file's own data, losslessly, as a dict (`relic convert --to json`); `relic.pack_json` writes it
    /// back.
    fn to_json(&self, py: Python<'_>) -> PyResult<PyObject> {
        let value = unlocked(py, || self.file.to_json())?;
        json_to_py(py, &value)
    }

    /// The file made again from its own document: equal to `bytes()` for every file relic reads whole.
    fn write_back<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let data = unlocked(py, || self.file.write_back())?;
        Ok(bytes(py, &data))
    }

    /// An archive's entries in stored order (`relic.Unsupported` when it is not an archive).
    fn entries(slf: Bound<'_, Self>) -> PyResult<Vec<PyEntry>> {
        let py = slf.py();
        let file = &slf.get().file;
        let list = unlocked(py, || file.entries())?;
        Ok(list
            .into_iter()
            .map(|e| PyEntry {
                name: e.name,
                path: e.path,
                size: e.size,
                modified: e.modified,
                archive: slf.clone().unbind(),
            })
            .collect())
    }

    /// The bytes of the entry stored as `name` (`\` and `/` alike, ASCII case ignored).
    fn read_entry<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyBytes>> {
        let data = unlocked(py, || self.file.read_entry(name))?;
        Ok(bytes(py, &data))
    }

    /// The entry stored as `name`, opened as a file of its own; converting it finds what it needs in this
    /// archive (textures, palettes, bones).
    fn open_entry(&self, py: Python<'_>, name: &str) -> PyResult<PyFile> {
        let file = unlocked(py, || self.file.open_entry(name))?;
        Ok(PyFile { file })
    }

    /// The file's image as PNG bytes (the first one, for a file of several).
    #[pyo3(signature = (**options))]
    fn to_png<'py>(&self, py: Python<'py>, options: Option<&Bound<'py, PyDict>>) -> PyResult<Bound<'py, PyBytes>> {
        let file = self.with_options(options)?;
        let data = unlocked(py, move || file.to_png())?;
        Ok(bytes(py, &data))
    }

    /// The file's sound as WAV bytes (the first one, for a file of several).
    fn to_wav<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let data = unlocked(py, || self.file.to_wav())?;
        Ok(bytes(py, &data))
    }

    /// The file's model or scene as binary glTF bytes. Options as `relic convert`'s: `textures`, `models`,
    /// `palette`, `bones`, `anims` (paths), `morph` (three floats 0..1), `settings` (dict of
    /// `--option` values).
    #[pyo3(signature = (**options))]
    fn to_glb<'py>(&self, py: Python<'py>, options: Option<&Bound<'py, PyDict>>) -> PyResult<Bound<'py, PyBytes>> {
        let file = self.with_options(options)?;
        let data = unlocked(py, move || file.to_glb())?;
        Ok(bytes(py, &data))
    }

    /// Every output `relic convert` makes of this file, as a list of `(path, kind, bytes)`; `to` picks the
    /// target (`png`, `glb`, `json`, …; each asset's default when None). Options as `to_glb`'s.
    #[pyo3(signature = (to = None, **options))]
    fn export<'py>(
        &self,
        py: Python<'py>,
        to: Option<String>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Vec<(String, &'static str, Bound<'py, PyBytes>)>> {
        let file = self.with_options(options)?;
        let outputs = unlocked(py, move || file.export(to.as_deref()))?;
        Ok(outputs.into_iter().map(|o| (o.path, o.kind, bytes(py, &o.bytes))).collect())
    }

    /// Writes `export`'s files into the folder `output_dir` and returns their paths; an existing file is
    /// refused unless `force`.
    #[pyo3(signature = (output_dir, to = None, force = false, **options))]
    fn export_to(
        &self,
        py: Python<'_>,
        output_dir: PathBuf,
        to: Option<String>,
        force: bool,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Vec<String>> {
        let file = self.with_options(options)?;
        let written = unlocked(py, move || file.export_to(&output_dir, to.as_deref(), force))?;
        Ok(written.into_iter().map(|p| p.to_string_lossy().into_owned()).collect())
    }

    fn __repr__(&self) -> String {
        format!(
            "<relic.File {:?} format={:?} size={}>",
            self.file.name(),
            self.file.format().id,
            self.file.bytes().len()
        )
    }
}

impl PyFile {
    fn with_options(&self, options: Option<&Bound<'_, PyDict>>) -> PyResult<GameFile> {
        match options {
            Some(d) if !d.is_empty() => Ok(self.file.clone().with_options(convert_options(Some(d))?)),
            _ => Ok(self.file.clone()),
        }
    }
}

/// Conversion options from keyword arguments, named as `relic convert`'s flags.
fn convert_options(options: Option<&Bound<'_, PyDict>>) -> PyResult<ConvertOptions> {
    let mut out = ConvertOptions::default();
    let Some(options) = options else { return Ok(out) };
    for (key, value) in options.iter() {
        let key: String = key.extract()?;
        if value.is_none() {
            continue;
        }
        match key.as_str() {
            "textures" => out.textures = Some(value.extract()?),
            "models" => out.models = Some(value.extract()?),
            "palette" => out.palette = Some(value.extract()?),
            "bones" => {
                let bones: PathBuf = value.extract()?;
                out.update_settings(|figure: &mut FigureSettings| figure.bones = Some(bones));
            }
            "anims" => {
                let anims: PathBuf = value.extract()?;
                out.update_settings(|figure: &mut FigureSettings| figure.anims = Some(anims));
            }
            "with_file" => {
                let with: PathBuf = value.extract()?;
                out.update_settings(|head: &mut HeadSettings| head.with = Some(with));
            }
            "mips" => out.mips = value.extract()?,
            "morph" => {
                let morph: Vec<f32> = value.extract()?;
                let morph: [f32; 3] = morph.try_into().map_err(|_| {
                    Refused::new_err("morph takes three numbers (STR, DEX, HEIGHT), each 0..1".to_string())
                })?;
                if morph.iter().any(|m| !(0.0..=1.0).contains(m)) {
                    return Err(Refused::new_err(format!("morph {morph:?}: each value is 0..1")));
                }
                out.update_settings(|figure: &mut FigureSettings| figure.morph = Some(morph));
            }
            "settings" | "options" => {
                let settings: std::collections::BTreeMap<String, String> = value.extract()?;
                out.settings = settings.into_iter().collect();
            }
            other => {
                return Err(Refused::new_err(format!(
                "unknown option `{other}` (textures, models, palette, bones, anims, with_file, mips, morph, options)"
            )))
            }
        }
    }
    Ok(out)
}

/// An archive entry as `File.entries()` lists it.
#[pyclass(module = "relic", name = "Entry", frozen)]
struct PyEntry {
    /// The name as the archive stores it, decoded (`data\texture\x.bmp`).
    #[pyo3(get)]
    name: String,
    /// Where `relic extract` writes it, relative and `/` separated.
    #[pyo3(get)]
    path: String,
    /// Its size once read (inflated, deciphered).
    #[pyo3(get)]
    size: u64,
    /// Modification time in Unix seconds, when the archive stores one, else None.
    #[pyo3(get)]
    modified: Option<u64>,
    archive: Py<PyFile>,
}

#[pymethods]
impl PyEntry {
    /// The entry's bytes (inflated, deciphered).
    fn read<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let archive = self.archive.get();
        let data = unlocked(py, || archive.file.read_entry(&self.name))?;
        Ok(bytes(py, &data))
    }

    /// The entry's bytes as a file-like object (`io.BytesIO`).
    fn open<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let data = self.read(py)?;
        py.import("io")?.call_method1("BytesIO", (data,))
    }

    /// The entry opened as a `File` of its own.
    fn open_file(&self, py: Python<'_>) -> PyResult<PyFile> {
        self.archive.get().open_entry(py, &self.name)
    }

    fn __repr__(&self) -> String {
        format!("<relic.Entry {:?} size={}>", self.name, self.size)
    }
}

/// Opens the file at `path` and identifies its format (`format` reads it as that format id instead).
#[pyfunction]
#[pyo3(signature = (path, format = None))]
fn open(py: Python<'_>, path: PathBuf, format: Option<String>) -> PyResult<PyFile> {
    let file = unlocked(py, move || match format {
        Some(f) => GameFile::open_as(&path, &f),
        None => GameFile::open(&path),
    })?;
    Ok(PyFile { file })
}

/// The format id of bytes named `name` (magic first, then the name when the bytes agree), or None.
#[pyfunction]
#[pyo3(signature = (data, name = ""))]
fn identify_bytes(py: Python<'_>, data: &Bound<'_, PyAny>, name: &str) -> PyResult<Option<&'static str>> {
    let data = buffer(data)?;
    Ok(py.allow_threads(|| relic::identify(&data, name).map(|f| f.id)))
}

/// The format id of the file at `path`, or None.
#[pyfunction]
fn identify_path(py: Python<'_>, path: PathBuf) -> PyResult<Option<&'static str>> {
    let found = unlocked(py, || relic::registry::identify_path(&path))?;
    Ok(found.map(|(f, _)| f.id))
}

/// Every format relic knows, as dicts.
#[pyfunction]
fn formats(py: Python<'_>) -> PyResult<PyObject> {
    let list: Vec<serde_json::Value> = relic::FORMATS
        .iter()
        .map(|f| {
            serde_json::json!({
                "id": f.id,
                "name": f.name,
                "game": f.game,
                "extensions": f.extensions,
                "kind": f.kind,
                "read": f.capabilities.read,
                "convert": f.capabilities.convert,
                "write": f.capabilities.write,
                "targets": f.targets(),
                "packed_from": f.packed_from(),
                "notes": f.notes,
            })
        })
        .collect();
    json_to_py(py, &serde_json::Value::Array(list))
}

/// Writes a file of `format` from its document (a dict as `File.to_json()` gives it) and returns its bytes.
#[pyfunction]
fn pack_json<'py>(py: Python<'py>, format: &str, document: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let value = py_to_json(py, document)?;
    let data = unlocked(py, || relic::write_json(format, value))?;
    Ok(bytes(py, &data))
}

/// `relic pack`: writes `output` as `format` from `input` (a folder, a JSON document, a PNG, a glTF…).
#[pyfunction]
#[pyo3(signature = (format, input, output, force = false, version = None, pixel_format = None, mips = false, quantize = false))]
#[allow(clippy::too_many_arguments)]
fn pack(
    py: Python<'_>,
    format: String,
    input: PathBuf,
    output: PathBuf,
    force: bool,
    version: Option<u32>,
    pixel_format: Option<String>,
    mips: bool,
    quantize: bool,
) -> PyResult<PyObject> {
    let options = relic::ops::PackOptions { force, version, pixel_format, mips, quantize, ..Default::default() };
    let report = unlocked(py, || relic::ops::pack(&format, &input, &output, &options))?;
    let result = PyDict::new(py);
    result.set_item("output", output.to_string_lossy())?;
    result.set_item("bytes", report.bytes)?;
    let companions = PyList::empty(py);
    for (path, bytes) in &report.companions {
        let item = PyDict::new(py);
        item.set_item("output", path.to_string_lossy())?;
        item.set_item("bytes", bytes)?;
        companions.append(item)?;
    }
    result.set_item("companions", companions)?;
    result.set_item("notes", PyList::new(py, report.notes)?)?;
    Ok(result.into_any().unbind())
}

/// What [`convert`] returns: the files written, `(input, message)` per failure, and the notes.
type ConvertResult = (Vec<String>, Vec<(String, String)>, Vec<String>);

/// `relic convert`: converts `inputs` (files and folders) into `output_dir`. Returns `(outputs, failures,
/// warnings)`: the files written, `(input, message)` per failure, and notes.
#[pyfunction]
#[pyo3(signature = (inputs, output_dir, to = None, force = false, **options))]
fn convert(
    py: Python<'_>,
    inputs: Vec<PathBuf>,
    output_dir: PathBuf,
    to: Option<String>,
    force: bool,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<ConvertResult> {
    let options = convert_options(options)?;
    let request = relic::ops::ConvertRequest { to, force, options, ..Default::default() };
    relic::ops::check_convert_request(&inputs, &request).map_err(Refused::new_err)?;
    let report = py.allow_threads(|| relic::ops::convert(&inputs, &output_dir, &request, &relic::ops::Quiet));
    // The warnings `relic convert` prints: each names its input, then the batch's summary of what was not found.
    let mut notes = report.warnings;
    notes.extend(report.missing_summary.into_iter().map(|line| format!("in all, {line}")));
    let outputs = report.outputs.into_iter().map(|o| o.output).collect();
    let failed = report.failed.into_iter().map(|f| (f.input, f.message)).collect();
    Ok((outputs, failed, notes))
}

/// `relic check --json`: reads every file under `inputs`, writes each back and reports how it compares.
#[pyfunction]
fn check(py: Python<'_>, inputs: Vec<PathBuf>) -> PyResult<PyObject> {
    let summary = py.allow_threads(|| relic::ops::check_summary(&relic::ops::check(&inputs, &relic::ops::Quiet)));
    json_to_py(py, &summary)
}

#[pymodule]
fn _relic(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // Class-level values, so that every instance has the four attributes (those raised with a location
    // set their own).
    for (class, kind) in [
        (py.get_type::<Error>(), None),
        (py.get_type::<InvalidData>(), Some("invalid")),
        (py.get_type::<LimitError>(), Some("limit")),
        (py.get_type::<Unsupported>(), Some("unsupported")),
        (py.get_type::<Refused>(), Some("refused")),
    ] {
        class.setattr("kind", kind)?;
        if kind.is_none() {
            for name in ["format", "field", "offset"] {
                class.setattr(name, py.None())?;
            }
        }
    }
    m.add("Error", py.get_type::<Error>())?;
    m.add("InvalidData", py.get_type::<InvalidData>())?;
    m.add("LimitError", py.get_type::<LimitError>())?;
    m.add("Unsupported", py.get_type::<Unsupported>())?;
    m.add("Refused", py.get_type::<Refused>())?;
    m.add_class::<PyFile>()?;
    m.add_class::<PyEntry>()?;
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(identify_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(identify_path, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add_function(wrap_pyfunction!(pack_json, m)?)?;
    m.add_function(wrap_pyfunction!(pack, m)?)?;
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    Ok(())
}
