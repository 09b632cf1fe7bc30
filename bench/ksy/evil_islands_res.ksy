# The Evil Islands RES archive's directory, for the Kaitai Struct peer of bench/run.py. Written for relic
# from the Evil Islands specification ("RES"): a 16-byte header, 22-byte file records, then the names.
# The benchmark uses it where the public game/evil_islands_res.ksy of kaitai_struct_formats cannot be had
# (`bench/run.py --ksy PATH` takes that one); both give the same `filetable`, `name` and `len_file`.
meta:
  id: evil_islands_res
  endian: le
  file-extension: res
seq:
  - id: magic
    contents: [0x3c, 0xe2, 0x9c, 0x01]
  - id: file_count
    type: u4
  - id: table_offset
    type: u4
  - id: names_size
    type: u4
instances:
  names_offset:
    value: table_offset + 22 * file_count
  filetable:
    pos: table_offset
    type: record
    repeat: expr
    repeat-expr: file_count
types:
  record:
    seq:
      - id: next_index
        type: s4
      - id: len_file
        type: u4
      - id: data_offset
        type: u4
      - id: modified
        type: u4
      - id: name_length
        type: u2
      - id: name_offset
        type: u4
    instances:
      name:
        io: _root._io
        pos: _root.names_offset + name_offset
        size: name_length
        type: str
        encoding: cp1251
