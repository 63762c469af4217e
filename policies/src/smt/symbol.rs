//! Injective quoting of names into SMT-LIB quoted symbols.

/// Quotes `name` as `|…|`, percent-escaping `|`, `\`, `%` and every byte outside printable ASCII.
///
/// The escaping is injective: `%` itself is escaped, so no two names share a symbol.
pub fn quote_symbol(name: &str) -> String {
    let mut quoted = String::with_capacity(name.len() + 2);
    quoted.push('|');
    for byte in name.bytes() {
        let is_printable = (0x20..=0x7e).contains(&byte);
        if is_printable && byte != b'|' && byte != b'\\' && byte != b'%' {
            quoted.push(char::from(byte));
        } else {
            quoted.push_str(&format!("%{byte:02X}"));
        }
    }
    quoted.push('|');
    quoted
}

/// The constant that stands for an entity (node, resource or component).
pub fn entity_symbol(name: &str) -> String {
    quote_symbol(&format!("entity:{name}"))
}

/// The constant that stands for a declared data type.
pub fn data_symbol(name: &str) -> String {
    quote_symbol(&format!("data:{name}"))
}
