//! A source file's bytes as text: the files never extracted (too large, binary-looking), UTF-8
//! with the Latin-1 and Windows-1252 a Python file may declare, and the looser reading of a file
//! that is only read for the types it declares.

use crate::input::scope::MAX_FILE_BYTES;

/// Why a file is not extracted whatever its language: larger than 2 MiB, or binary-looking.
pub(crate) fn skip_reason(bytes: &[u8]) -> Option<String> {
    if bytes.len() > MAX_FILE_BYTES {
        return Some("file is larger than 2 MiB".to_owned());
    }
    // `contains` on bytes is a vectorised memchr, not a loop over each byte.
    let head = bytes.get(..8 * 1024).unwrap_or(bytes);
    if head.contains(&0) {
        return Some("file looks binary: NUL byte in its first 8 KiB".to_owned());
    }
    None
}

/// The text of a source file: UTF-8, or, for a Python file whose PEP 263 declaration on its first
/// or second line names Latin-1 or Windows-1252 (`# -*- coding: latin-1 -*-`), its bytes decoded
/// one character each, so lines and columns stay those of the file. Anything else that is not
/// UTF-8 is skipped with the offset of the first invalid byte.
pub(super) fn source_text(file: &str, bytes: Vec<u8>) -> Result<String, String> {
    let error = match String::from_utf8(bytes) {
        Ok(text) => return Ok(text),
        Err(error) => error,
    };
    let offset = error.utf8_error().valid_up_to();
    let bytes = error.into_bytes();
    let is_python = file.ends_with(".py") || file.ends_with(".pyi");
    match declared_python_encoding(&bytes).filter(|_| is_python) {
        Some(SingleByte::Latin1) => Ok(bytes.iter().map(|byte| char::from(*byte)).collect()),
        Some(SingleByte::Windows1252) => Ok(bytes.iter().map(|byte| windows_1252(*byte)).collect()),
        None => Err(format!(
            "file is not valid UTF-8: invalid byte at offset {offset}"
        )),
    }
}

/// A single-byte encoding lintel decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum SingleByte {
    Latin1,
    Windows1252,
}

/// The encoding a PEP 263 declaration names (`coding[:=]\s*NAME` in a comment on line 1 or 2),
/// when it is one lintel decodes.
pub(super) fn declared_python_encoding(bytes: &[u8]) -> Option<SingleByte> {
    bytes.split(|byte| *byte == b'\n').take(2).find_map(|line| {
        let line = String::from_utf8_lossy(line);
        let comment = line
            .trim_start_matches([' ', '\t', '\x0c'])
            .strip_prefix('#')?;
        let at = comment.find("coding")?;
        let rest = comment.get(at + "coding".len()..)?;
        let rest = rest
            .strip_prefix([':', '='])?
            .trim_start_matches([' ', '\t']);
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            .map(|c| {
                if c == '_' {
                    '-'
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect();
        match name.as_str() {
            "latin-1" | "latin1" | "iso-8859-1" | "iso8859-1" | "iso-latin-1" | "l1" | "cp819"
            | "8859" | "latin" => Some(SingleByte::Latin1),
            "cp1252" | "windows-1252" => Some(SingleByte::Windows1252),
            _ => None,
        }
    })
}

/// A Windows-1252 byte as a character: Latin-1 but for the printable characters at 0x80–0x9F
/// (bytes the code page leaves undefined keep their Latin-1 control character).
fn windows_1252(byte: u8) -> char {
    const HIGH: [char; 32] = [
        '\u{20AC}', '\u{81}', '\u{201A}', '\u{192}', '\u{201E}', '\u{2026}', '\u{2020}',
        '\u{2021}', '\u{2C6}', '\u{2030}', '\u{160}', '\u{2039}', '\u{152}', '\u{8D}', '\u{17D}',
        '\u{8F}', '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}',
        '\u{2014}', '\u{2DC}', '\u{2122}', '\u{161}', '\u{203A}', '\u{153}', '\u{9D}', '\u{17E}',
        '\u{178}',
    ];
    byte.checked_sub(0x80)
        .and_then(|index| HIGH.get(usize::from(index)))
        .copied()
        .unwrap_or(char::from(byte))
}

/// The text of a file as a type index reads it: any readable UTF-8 file of at most 2 MiB
/// (a binary-looking or generated file still declares types that imports may name).
pub(super) fn declaration_text(bytes: Vec<u8>) -> Option<String> {
    if bytes.len() > MAX_FILE_BYTES {
        return None;
    }
    String::from_utf8(bytes).ok()
}
