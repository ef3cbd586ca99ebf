//! Just enough YAML for the consensus-spec-tests KZG cases: block mappings, block sequences
//! (nested `- - x` included), flow sequences `[a, b]` folded over several lines, quoted and
//! plain scalars, `null`. Test-only; a case this cannot read fails loudly.

/// A YAML value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Str(String),
    List(Vec<Value>),
    Map(Vec<(String, Value)>),
}

impl Value {
    /// The value under `key` of a mapping.
    pub fn get(&self, key: &str) -> &Value {
        match self {
            Value::Map(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v).unwrap_or_else(|| panic!("no key {key}")),
            _ => panic!("not a mapping, looking for {key}"),
        }
    }

    pub fn is_null(&self) -> bool {
        *self == Value::Null
    }

    pub fn str(&self) -> &str {
        match self {
            Value::Str(s) => s,
            v => panic!("not a scalar: {v:?}"),
        }
    }

    pub fn list(&self) -> &[Value] {
        match self {
            Value::List(l) => l,
            v => panic!("not a list: {v:?}"),
        }
    }

    /// A hex scalar as bytes; an odd digit count keeps a trailing byte so the length is wrong.
    pub fn bytes(&self) -> Vec<u8> {
        let s = self.str().trim_start_matches("0x");
        let mut out: Vec<u8> = (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap_or(0xff)).collect();
        if s.len() % 2 == 1 {
            out.push(0);
        }
        out
    }

    /// A list of hex scalars as byte strings.
    pub fn bytes_list(&self) -> Vec<Vec<u8>> {
        self.list().iter().map(Value::bytes).collect()
    }

    /// A list of integers.
    pub fn u64_list(&self) -> Vec<u64> {
        self.list().iter().map(|v| v.str().parse().unwrap_or_else(|_| panic!("not an integer: {v:?}"))).collect()
    }
}

struct Line {
    indent: usize,
    text: String,
}

fn scalar(s: &str) -> Value {
    let s = s.trim();
    if s == "null" || s == "~" {
        return Value::Null;
    }
    if let Some(inner) = s.strip_prefix('[') {
        let inner = inner.strip_suffix(']').unwrap_or_else(|| panic!("unclosed flow list: {s}"));
        return Value::List(inner.split(',').map(str::trim).filter(|x| !x.is_empty()).map(scalar).collect());
    }
    Value::Str(s.trim_matches('\'').trim_matches('"').to_string())
}

/// Logical lines: flow lists joined, `- - x` split into `-` and `- x` one level deeper.
fn lines(text: &str) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let mut open: Option<Line> = None;
    for raw in text.lines() {
        if raw.trim().is_empty() || raw.trim_start().starts_with('#') {
            continue;
        }
        if let Some(mut l) = open.take() {
            l.text.push(' ');
            l.text.push_str(raw.trim());
            if l.text.matches('[').count() > l.text.matches(']').count() {
                open = Some(l);
            } else {
                out.push(l);
            }
            continue;
        }
        let indent = raw.len() - raw.trim_start().len();
        let mut text = raw.trim().to_string();
        let mut ind = indent;
        while let Some(rest) = text.strip_prefix("- ").filter(|r| r.starts_with("- ") || r.trim() == "-") {
            out.push(Line { indent: ind, text: "-".to_string() });
            ind += 2;
            text = rest.to_string();
        }
        let l = Line { indent: ind, text };
        if l.text.matches('[').count() > l.text.matches(']').count() {
            open = Some(l);
        } else {
            out.push(l);
        }
    }
    out
}

fn block(ls: &[Line], pos: &mut usize, indent: usize) -> Value {
    if *pos >= ls.len() {
        return Value::Null;
    }
    if ls[*pos].text == "-" || ls[*pos].text.starts_with("- ") {
        let mut items = Vec::new();
        while *pos < ls.len() && ls[*pos].indent == indent && (ls[*pos].text == "-" || ls[*pos].text.starts_with("- ")) {
            let t = ls[*pos].text.clone();
            *pos += 1;
            if t == "-" {
                let next = ls.get(*pos).map(|l| l.indent).unwrap_or(0);
                items.push(block(ls, pos, next));
            } else {
                items.push(scalar(&t[2..]));
            }
        }
        return Value::List(items);
    }
    let mut map = Vec::new();
    while *pos < ls.len() && ls[*pos].indent == indent && !ls[*pos].text.starts_with('-') {
        let t = ls[*pos].text.clone();
        let (k, v) = t.split_once(':').unwrap_or_else(|| panic!("not a key: {t}"));
        *pos += 1;
        let value = if v.trim().is_empty() {
            match ls.get(*pos) {
                Some(n) if n.indent > indent || (n.indent == indent && n.text.starts_with('-')) => {
                    let ni = n.indent;
                    block(ls, pos, ni)
                }
                _ => Value::Null,
            }
        } else {
            scalar(v)
        };
        map.push((k.trim().to_string(), value));
    }
    Value::Map(map)
}

/// Parse a document.
pub fn parse(text: &str) -> Value {
    let ls = lines(text);
    let mut pos = 0;
    let v = block(&ls, &mut pos, 0);
    assert_eq!(pos, ls.len(), "unparsed YAML from line {pos}");
    v
}
