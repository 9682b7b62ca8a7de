//! Writes the docstring of every public function of each game's pure-Python twin
//! (`python/perfectplay/<game>/twin.py`) to `OUT_DIR/docs/<game>/<function>.txt`, where a
//! `rust/py` file's `bindings! { twin = "<game>"; ... }` includes it: one text for `help()` on
//! both backends.

use std::path::Path;
use std::{env, fs};

fn main() {
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("docs");
    // A new game's bindings file is a change here: its twin is then read too.
    println!("cargo::rerun-if-changed=rust/py");
    let games = fs::read_dir("python/perfectplay").expect("the package's source is here");
    for game in games.map(|entry| entry.expect("a readable folder").path()) {
        let twin = game.join("twin.py");
        let Ok(source) = fs::read_to_string(&twin) else {
            continue;
        };
        println!("cargo::rerun-if-changed={}", twin.display());
        let folder = out.join(game.file_name().expect("a folder's name"));
        fs::create_dir_all(&folder).expect("OUT_DIR is writable");
        for (name, doc) in docstrings(&source, &twin.display().to_string()) {
            fs::write(folder.join(format!("{name}.txt")), doc).expect("OUT_DIR is writable");
        }
    }
}

/// `(name, docstring)` of each public top-level function of a module laid out as ruff formats
/// it: `def name(` at a line's start, the signature's last line ending in `:`, the docstring
/// the body's first line in `"""`; cleaned as `inspect.cleandoc` cleans it.
fn docstrings(source: &str, file: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut lines = source.lines();
    while let Some(line) = lines.next() {
        let Some(name) = line
            .strip_prefix("def ")
            .and_then(|rest| rest.split('(').next())
        else {
            continue;
        };
        let mut header = line;
        while !header.trim_end().ends_with(':') {
            header = lines
                .next()
                .unwrap_or_else(|| panic!("{file}: {name}'s signature"));
        }
        let Some(first) = lines
            .next()
            .and_then(|body| body.trim().strip_prefix("\"\"\""))
        else {
            continue;
        };
        if name.starts_with('_') {
            continue;
        }
        let mut text = vec![first.to_owned()];
        while !text.last().is_some_and(|line| line.contains("\"\"\"")) {
            let line = lines
                .next()
                .unwrap_or_else(|| panic!("{file}: {name}'s docstring"));
            text.push(line.to_owned());
        }
        let last = text.last_mut().expect("one line at least");
        *last = last.split("\"\"\"").next().unwrap_or_default().to_owned();
        assert!(
            !text.iter().any(|line| line.contains('\\')),
            "{file}: {name}'s docstring has an escape, which this reader does not decode"
        );
        found.push((name.to_owned(), cleaned(&text)));
    }
    found
}

/// The lines of a docstring as `inspect.cleandoc` gives them: the first line stripped, the
/// others less their common indentation, blank lines at either end removed.
fn cleaned(lines: &[String]) -> String {
    let indent = lines[1..]
        .iter()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.len() - line.trim_start().len())
        .min()
        .unwrap_or(0);
    let rest = lines[1..]
        .iter()
        .map(|line| line.get(indent..).unwrap_or("").trim_end());
    let all: Vec<&str> = std::iter::once(lines[0].trim()).chain(rest).collect();
    all.join("\n").trim_matches('\n').to_owned()
}
