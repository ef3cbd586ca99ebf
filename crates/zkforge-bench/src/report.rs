//! What `zkforge bench` says about a run besides its rows: the header naming the machine and
//! build ([`Meta`]), the summary per group and peer ([`summarize`]: row count, geometric mean
//! of the ratios ours / peer, best and worst rows, every row where zkforge is slower), the
//! tables of BENCHMARKS.md ([`markdown`], spliced between markers by [`splice_markdown`]), and
//! one self-contained HTML page with a chart per group ([`html`]; charts drawn by plotters'
//! SVG backend and inlined, so the page opens without network access).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use plotters::prelude::*;
use serde::Serialize;

use crate::harness::Row;

/// The machine and build a run came from; printed as the header and stored in the JSON.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Meta {
    /// CPU model (`/proc/cpuinfo`'s model name; the architecture elsewhere).
    pub cpu: String,
    /// CPUs this process may use.
    pub cpus: usize,
    /// Instruction-set extensions detected at run time that zkforge's backends use.
    pub cpu_features: Vec<String>,
    /// Backends zkforge chose at run time ("field: x86-64 MULX/ADX", ...).
    pub backends: Vec<String>,
    /// Threads of the rows: 1 unless a row's `threads` says otherwise (rows never use more
    /// than the CPUs above).
    pub threads: String,
    /// Git commit of the checkout (`-dirty` when tracked files differ), or `unknown`.
    pub commit: String,
    /// UTC date and time of the run, ISO 8601.
    pub date: String,
    /// zkforge version.
    pub version: String,
    /// Measurement settings.
    pub settings: String,
    /// Peers run out of process (gnark-crypto through Go): the version run, or why their rows
    /// are missing. Empty when no group that uses them ran.
    pub external_peers: Vec<String>,
}

impl Meta {
    /// Detect the machine and build; `settings` describes the measurement.
    pub fn detect(settings: &str) -> Meta {
        let mut cpu_features = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            for (name, on) in [
                ("BMI2", std::is_x86_feature_detected!("bmi2")),
                ("ADX", std::is_x86_feature_detected!("adx")),
                ("AVX2", std::is_x86_feature_detected!("avx2")),
                ("AVX-512F", std::is_x86_feature_detected!("avx512f")),
                ("AVX-512BW", std::is_x86_feature_detected!("avx512bw")),
                ("AVX-512IFMA", std::is_x86_feature_detected!("avx512ifma")),
            ] {
                if on {
                    cpu_features.push(name.to_string());
                }
            }
        }
        let field = if zkforge_field::backend::adx_active() { "x86-64 MULX/ADX assembly" } else { "portable Rust" };
        let has = |f: &str| cpu_features.iter().any(|x| x == f);
        // the curve-arithmetic lanes (fields, MSM, pairings, KZG); ZKFORGE_NO_IFMA turns them off
        let ifma = if !has("AVX-512IFMA") {
            "none (no AVX-512 IFMA)"
        } else if zkforge_field::backend::ifma_allowed() {
            "on"
        } else {
            "off (ZKFORGE_NO_IFMA: the AVX2 machine's paths)"
        };
        // packed Poseidon2's sixteen lanes need AVX-512BW too (`packed_avx512::has_lanes`)
        let form = zkforge_hashsig::poseidon2::packed_form();
        let order = if form.tail_first { "internal rounds tail first" } else { "internal rounds in one pass" };
        let poseidon = if has("AVX-512F") && has("AVX-512BW") && form.sixteen_lanes {
            let one = match zkforge_hashsig::poseidon2::scalar_form().registers {
                zkforge_hashsig::poseidon2::Registers::Auto | zkforge_hashsig::poseidon2::Registers::Avx512 => "one state in AVX-512 registers",
                zkforge_hashsig::poseidon2::Registers::Avx2 => "one state in AVX2 registers",
                zkforge_hashsig::poseidon2::Registers::Portable => "one state in portable rounds",
            };
            let cube = if form.signed_cube { "signed S-box" } else { "previous unsigned S-box" };
            let diag = if form.masked_diag { "masked diagonal" } else { "previous signed diagonal" };
            format!("AVX-512 (16 lanes, {cube}, {diag}, {order}; {one})")
        } else if has("AVX2") {
            format!("AVX2 (8 lanes, {order}; one state in AVX2 registers)")
        } else {
            "scalar".to_string()
        };
        let p1 = match zkforge_hashsig::poseidon1::packed_lanes() {
            16 => "batches of 16 in AVX-512 registers",
            8 => "batches of 8 in AVX2 registers",
            _ => "one state at a time",
        };
        let p1_form = zkforge_hashsig::poseidon1::form();
        let p1_partial = format!(
            "{} partial rounds{}, width 24's MDS product {}, width 16's {}",
            if p1_form.sparse_partial { "sparse" } else { "dense" },
            if p1_form.sparse_partial && p1_form.deferred_partial { " (one state: deferred)" } else { "" },
            if p1_form.circulant_ntt { "as a convolution" } else { "dense" },
            if p1_form.mds16_crt { "split by the CRT" } else { "whole" }
        );
        Meta {
            cpu: cpu_model(),
            cpus: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
            cpu_features,
            backends: vec![format!("field: {field}"), format!("IFMA lanes: {ifma}"), format!("hashsig Poseidon2: {poseidon}"), format!("hashsig Poseidon1 (devnet 4 key generation): {p1}, {p1_partial}")],
            threads: "1 per row unless its thr column says more (no pool for 1)".into(),
            commit: git_commit(),
            date: utc_now(),
            version: env!("CARGO_PKG_VERSION").into(),
            settings: settings.into(),
            external_peers: Vec::new(),
        }
    }

    /// The header lines printed above the table.
    pub fn header(&self) -> String {
        format!(
            "zkforge bench {} at commit {}, {}\nmachine: {}, {} CPU(s); run-time features: {}\nbackends: {}\nthreads: {}; settings: {}\n{}",
            self.version,
            self.commit,
            self.date,
            self.cpu,
            self.cpus,
            if self.cpu_features.is_empty() { "none".to_string() } else { self.cpu_features.join(", ") },
            self.backends.join("; "),
            self.threads,
            self.settings,
            self.external_peers.iter().map(|p| format!("external peer: {p}\n")).collect::<String>()
        )
    }
}

fn cpu_model() -> String {
    let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else {
        return std::env::consts::ARCH.to_string();
    };
    let field = |key: &str| {
        info.lines().find(|l| l.split(':').next().is_some_and(|k| k.trim() == key)).and_then(|l| l.split(':').nth(1)).map(|m| m.trim().to_string())
    };
    let name = field("model name").unwrap_or_else(|| std::env::consts::ARCH.to_string());
    match (field("cpu family"), field("model")) {
        (Some(f), Some(m)) => format!("{name} (family {f}, model {m})"),
        _ => name,
    }
}

fn git_commit() -> String {
    let run = |args: &[&str]| std::process::Command::new("git").args(args).output().ok().filter(|o| o.status.success()).map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    match run(&["rev-parse", "--short=12", "HEAD"]) {
        Some(c) if !c.is_empty() => {
            let dirty = run(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{c}-dirty")
            } else {
                c
            }
        }
        _ => "unknown (not a git checkout)".into(),
    }
}

/// The civil date of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn utc_now() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0);
    let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", s / 3600, s / 60 % 60, s % 60)
}

/// A row's name in summaries: operation, curve, size when above 1, threads when above 1.
pub fn row_name(r: &Row) -> String {
    let mut s = format!("{} {}", r.op, r.curve);
    if r.size > 1 {
        let _ = write!(s, " n={}", r.size);
    }
    if r.threads > 1 {
        let _ = write!(s, " {}thr", r.threads);
    }
    s
}

/// A row named with its ratio.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct NamedRatio {
    /// [`row_name`].
    pub name: String,
    /// ours / peer.
    pub ratio: f64,
}

/// The summary of one group against one peer.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GroupSummary {
    /// Group.
    pub group: String,
    /// Peer label.
    pub peer: String,
    /// Rows with this peer.
    pub rows: usize,
    /// Geometric mean of the ratios ours / peer.
    pub geomean: f64,
    /// The row with the smallest ratio (zkforge's best).
    pub best: NamedRatio,
    /// The row with the largest ratio.
    pub worst: NamedRatio,
    /// Every row with ratio above 1.0 (zkforge slower), in run order.
    pub slower: Vec<NamedRatio>,
    /// The "peer" is zkforge itself in another configuration (`zkforge-1thread`,
    /// `zkforge-unprepared`, ...): a scaling or ablation row, not a comparison with a peer.
    pub internal: bool,
}

/// The summary of a run: per group and peer (groups in run order, peers in first-seen order),
/// and the count of rows without a peer.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    /// One entry per (group, peer) with at least one row.
    pub groups: Vec<GroupSummary>,
    /// Rows that have no runnable peer (ours alone).
    pub peerless_rows: usize,
}

/// Summarise rows: for each group and peer, the number of rows, the geometric mean of the
/// ratios, the best and worst rows and the rows where zkforge is slower. Rows without a peer
/// (or with a ratio that is not a positive finite number) are only counted.
pub fn summarize(rows: &[Row]) -> Summary {
    let mut order: Vec<(String, String)> = Vec::new();
    let mut by: BTreeMap<(String, String), Vec<NamedRatio>> = BTreeMap::new();
    let mut peerless = 0;
    for r in rows {
        match r.ratio {
            Some(x) if x.is_finite() && x > 0.0 => {
                let key = (r.group.clone(), r.peer.clone());
                if !by.contains_key(&key) {
                    order.push(key.clone());
                }
                by.entry(key).or_default().push(NamedRatio { name: row_name(r), ratio: x });
            }
            _ => peerless += 1,
        }
    }
    let groups = order
        .into_iter()
        .map(|key| {
            let v = &by[&key];
            let geomean = (v.iter().map(|n| n.ratio.ln()).sum::<f64>() / v.len() as f64).exp();
            let best = v.iter().min_by(|a, b| a.ratio.total_cmp(&b.ratio)).expect("non-empty").clone();
            let worst = v.iter().max_by(|a, b| a.ratio.total_cmp(&b.ratio)).expect("non-empty").clone();
            let slower = v.iter().filter(|n| n.ratio > 1.0).cloned().collect();
            let internal = key.1.starts_with("zkforge");
            GroupSummary { group: key.0, peer: key.1, rows: v.len(), geomean, best, worst, slower, internal }
        })
        .collect();
    Summary { groups, peerless_rows: peerless }
}

/// One sentence on the rows with a peer: how many, and on how many zkforge is slower
/// (comparisons of zkforge with itself excluded).
pub fn headline(s: &Summary) -> String {
    let peers = s.groups.iter().filter(|g| !g.internal);
    let (total, slower): (usize, usize) = peers.fold((0, 0), |(t, sl), g| (t + g.rows, sl + g.slower.len()));
    format!("zkforge is faster or equal on {} of {total} rows with a peer, slower on {slower}.", total - slower)
}

/// The summary as plain text, printed at the end of a run.
pub fn summary_text(s: &Summary) -> String {
    let mut out = String::from("Summary: ours / peer (below 1.00 zkforge is faster; geomean = geometric mean of the rows' ratios)\n");
    let cell = |n: &NamedRatio| format!("{:.2} {}", n.ratio, n.name);
    let wb = s.groups.iter().map(|g| cell(&g.best).len()).max().unwrap_or(4).max(4);
    let wp = s.groups.iter().map(|g| g.peer.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(out, "{:<12} {:<wp$} {:>4} {:>7}  {:<wb$}  worst", "group", "peer", "rows", "geomean", "best");
    for g in &s.groups {
        let _ = writeln!(out, "{:<12} {:<wp$} {:>4} {:>7.2}  {:<wb$}  {}", g.group, g.peer, g.rows, g.geomean, cell(&g.best), cell(&g.worst));
    }
    let peers: Vec<&GroupSummary> = s.groups.iter().filter(|g| !g.internal).collect();
    let slower: usize = peers.iter().map(|g| g.slower.len()).sum();
    let total: usize = peers.iter().map(|g| g.rows).sum();
    if total == 0 {
        let _ = writeln!(out, "No row has a peer.");
    } else if slower == 0 {
        let _ = writeln!(out, "zkforge is faster or equal on all {total} rows with a peer.");
    } else {
        let _ = writeln!(out, "Slower than the peer (ratio above 1.00) on {slower} of {total} rows with a peer:");
        for g in &peers {
            for n in &g.slower {
                let _ = writeln!(out, "  {:<12} {:<wp$} {:>6.2}  {}", g.group, g.peer, n.ratio, n.name);
            }
        }
    }
    if s.groups.iter().any(|g| g.internal) {
        let _ = writeln!(out, "(rows whose peer is `zkforge-*` compare zkforge with itself: thread scaling and ablations; not counted above)");
    }
    if s.peerless_rows > 0 {
        let _ = writeln!(out, "{} row(s) have no runnable peer (ours alone).", s.peerless_rows);
    }
    out
}

/// The JSON document `--json` writes: the header fields, the rows (peerless rows with `null`
/// peer time and ratio) and the summary.
#[derive(Serialize)]
pub struct Document<'a> {
    /// Machine and build.
    pub meta: &'a Meta,
    /// Every row.
    pub rows: &'a [Row],
    /// The summary of the rows.
    pub summary: &'a Summary,
}

/// A time in ns, in the unit that keeps it readable (ns, µs, ms, s).
pub fn human_ns(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

/// The first line of the generated Markdown block.
pub const MD_BEGIN: &str = "<!-- zkbench:begin (generated by `cargo zkbench --markdown FILE`; edit outside these markers) -->";
/// The last line of the generated Markdown block.
pub const MD_END: &str = "<!-- zkbench:end -->";

/// The generated Markdown block (between [`MD_BEGIN`] and [`MD_END`]): the header, the summary
/// and one table per group.
pub fn markdown(meta: &Meta, rows: &[Row], summary: &Summary) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{MD_BEGIN}");
    let _ = writeln!(s);
    let _ = writeln!(s, "- Machine: {}, {} CPU(s); run-time features: {}", meta.cpu, meta.cpus, meta.cpu_features.join(", "));
    let _ = writeln!(s, "- Backends: {}", meta.backends.join("; "));
    let _ = writeln!(s, "- Commit {}, zkforge {}, {}", meta.commit, meta.version, meta.date);
    let _ = writeln!(s, "- Threads: {}; settings: {}", meta.threads, meta.settings);
    for p in &meta.external_peers {
        let _ = writeln!(s, "- External peer: {p}");
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "#### Summary (ours / peer; below 1.00 zkforge is faster)");
    let _ = writeln!(s);
    let _ = writeln!(s, "{} Peers named `zkforge-*` are zkforge itself in another configuration (thread scaling, ablations).", headline(summary));
    let _ = writeln!(s);
    let _ = writeln!(s, "| group | peer | rows | geomean | best | worst | slower rows |");
    let _ = writeln!(s, "|---|---|---:|---:|---|---|---:|");
    for g in &summary.groups {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {:.2} | {:.2} {} | {:.2} {} | {} |",
            g.group,
            g.peer,
            g.rows,
            g.geomean,
            g.best.ratio,
            g.best.name,
            g.worst.ratio,
            g.worst.name,
            g.slower.len()
        );
    }
    let slower: Vec<(&GroupSummary, &NamedRatio)> = summary.groups.iter().filter(|g| !g.internal).flat_map(|g| g.slower.iter().map(move |n| (g, n))).collect();
    if !slower.is_empty() {
        let _ = writeln!(s);
        let _ = writeln!(s, "Rows where zkforge is slower: {}.", slower.iter().map(|(g, n)| format!("{} ({}, {:.2})", n.name, g.peer, n.ratio)).collect::<Vec<_>>().join("; "));
    }
    let mut groups: Vec<&str> = Vec::new();
    for r in rows {
        if !groups.contains(&r.group.as_str()) {
            groups.push(&r.group);
        }
    }
    for g in groups {
        let _ = writeln!(s);
        let _ = writeln!(s, "#### {g}");
        let _ = writeln!(s);
        let _ = writeln!(s, "| op | curve | size | thr | ours | peer | peer time | ratio |");
        let _ = writeln!(s, "|---|---|---:|---:|---:|---|---:|---:|");
        for r in rows.iter().filter(|r| r.group == g) {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                r.op,
                r.curve,
                r.size,
                r.threads,
                human_ns(r.ours_ns),
                r.peer,
                r.peer_ns.map_or_else(|| "-".into(), human_ns),
                r.ratio.map_or_else(|| "-".into(), |x| format!("{x:.2}"))
            );
        }
    }
    let _ = writeln!(s);
    let _ = write!(s, "{MD_END}");
    s
}

/// `existing` with the text between its [`MD_BEGIN`] and [`MD_END`] lines (markers included)
/// replaced by `block`; the prose around them is kept. `Err` when the markers are missing or
/// out of order.
pub fn splice_markdown(existing: &str, block: &str) -> Result<String, String> {
    let begin = existing.find("<!-- zkbench:begin").ok_or("no `<!-- zkbench:begin ... -->` marker")?;
    let end_rel = existing[begin..].find(MD_END).ok_or("no `<!-- zkbench:end -->` marker after the begin marker")?;
    let end = begin + end_rel + MD_END.len();
    Ok(format!("{}{}{}", &existing[..begin], block, &existing[end..]))
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The colour of the i-th implementation of a chart.
fn colour(i: usize) -> RGBColor {
    const C: [RGBColor; 12] = [
        RGBColor(0x1f, 0x77, 0xb4),
        RGBColor(0xd6, 0x27, 0x28),
        RGBColor(0x2c, 0xa0, 0x2c),
        RGBColor(0xff, 0x7f, 0x0e),
        RGBColor(0x94, 0x67, 0xbd),
        RGBColor(0x8c, 0x56, 0x4b),
        RGBColor(0xe3, 0x77, 0xc2),
        RGBColor(0x17, 0xbe, 0xcf),
        RGBColor(0xbc, 0xbd, 0x22),
        RGBColor(0x7f, 0x7f, 0x7f),
        RGBColor(0x00, 0x00, 0x80),
        RGBColor(0x80, 0x80, 0x00),
    ];
    C[i % C.len()]
}

/// One group's ratio chart as SVG: one line per operation and size (a row label), the ratio
/// ours / peer on a log axis, one colour per peer, the 1.0 line drawn. `None` when the group
/// has no row with a peer.
pub fn ratio_chart(group: &str, rows: &[Row]) -> Result<Option<String>, String> {
    let rows: Vec<&Row> = rows.iter().filter(|r| r.group == group && r.ratio.is_some_and(|x| x.is_finite() && x > 0.0)).collect();
    if rows.is_empty() {
        return Ok(None);
    }
    let mut peers: Vec<String> = Vec::new();
    for r in &rows {
        if !peers.contains(&r.peer) {
            peers.push(r.peer.clone());
        }
    }
    let mut labels: Vec<String> = Vec::new();
    for r in &rows {
        let l = row_name(r);
        if !labels.contains(&l) {
            labels.push(l);
        }
    }
    let ratios: Vec<f64> = rows.iter().filter_map(|r| r.ratio).collect();
    let lo = ratios.iter().copied().fold(1.0f64, f64::min) / 1.25;
    let hi = ratios.iter().copied().fold(1.0f64, f64::max) * 1.25;
    let n = labels.len() as i32;
    let height = 90 + 17 * labels.len() as u32;
    let label_px = 8 * labels.iter().map(|l| l.len()).max().unwrap_or(10) as u32 + 10;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1100, height.max(60 + 18 * peers.len() as u32))).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        // the legend gets its own panel on the right, so that it never hides a point
        let (plot, legend) = root.split_horizontally(880);
        for (pi, peer) in peers.iter().enumerate() {
            let y = 50 + 18 * pi as i32;
            legend.draw(&Circle::new((14, y), 5, colour(pi).filled())).map_err(|e| e.to_string())?;
            legend.draw(&Text::new(peer.clone(), (26, y - 7), ("sans-serif", 13))).map_err(|e| e.to_string())?;
        }
        let mut chart = ChartBuilder::on(&plot)
            .caption(format!("{group}: ours / peer (log scale; left of the 1.0 line zkforge is faster)"), ("sans-serif", 16))
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(label_px.min(520))
            .build_cartesian_2d((lo..hi).log_scale().with_key_points(ratio_ticks(lo, hi)), -1..n)
            .map_err(|e| e.to_string())?;
        let lab = labels.clone();
        chart
            .configure_mesh()
            .y_labels(labels.len() + 2)
            .y_label_formatter(&move |i: &i32| if *i >= 0 && *i < n { lab[(n - 1 - *i) as usize].clone() } else { String::new() })
            .x_label_formatter(&|x: &f64| format!("{x:.2}"))
            .x_desc("ours / peer")
            .label_style(("sans-serif", 12))
            .draw()
            .map_err(|e| e.to_string())?;
        chart.draw_series(LineSeries::new([(1.0, -1), (1.0, n)], BLACK.stroke_width(2))).map_err(|e| e.to_string())?;
        for (pi, peer) in peers.iter().enumerate() {
            let pts: Vec<(f64, i32)> = rows
                .iter()
                .filter(|r| &r.peer == peer)
                .map(|r| (r.ratio.expect("filtered"), n - 1 - labels.iter().position(|l| *l == row_name(r)).expect("label") as i32))
                .collect();
            if pts.is_empty() {
                continue;
            }
            let c = colour(pi);
            chart.draw_series(pts.into_iter().map(move |p| Circle::new(p, 4, c.filled()))).map_err(|e| e.to_string())?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(Some(svg))
}

/// Tick values for a ratio axis from `lo` to `hi`: the round ratios inside the range.
fn ratio_ticks(lo: f64, hi: f64) -> Vec<f64> {
    const T: [f64; 22] = [0.05, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 2.0, 3.0, 4.0, 5.0, 10.0, 20.0, 50.0];
    T.iter().copied().filter(|&t| t >= lo && t <= hi).collect()
}

/// Tick values for a log axis from `lo` to `hi`: 1, 2 and 5 times the powers of ten inside
/// the range.
fn decade_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let mut v = Vec::new();
    for k in (lo.log10().floor() as i32)..=(hi.log10().ceil() as i32) {
        for m in [1.0, 2.0, 5.0] {
            let t = m * 10f64.powi(k);
            if t >= lo && t <= hi {
                v.push(t);
            }
        }
    }
    v
}

/// One line of an MSM chart: implementation, colour, (points, ms) pairs.
type Series = (String, RGBColor, Vec<(f64, f64)>);

/// The MSM charts: for each operation, curve and thread count with more than one size, time
/// per MSM against size (log-log), one line per implementation (zkforge and each peer).
pub fn msm_charts(rows: &[Row]) -> Result<Vec<String>, String> {
    let msm: Vec<&Row> = rows.iter().filter(|r| r.group == "msm").collect();
    let mut keys: Vec<(String, String, usize)> = Vec::new();
    for r in &msm {
        let k = (r.op.clone(), r.curve.clone(), r.threads);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let mut out = Vec::new();
    for (op, curve, threads) in keys {
        let rs: Vec<&&Row> = msm.iter().filter(|r| r.op == op && r.curve == curve && r.threads == threads).collect();
        // (implementation, colour index) -> (size, ns); ours is drawn once per size
        let mut series: Vec<Series> = vec![("zkforge".into(), BLACK, Vec::new())];
        for r in &rs {
            let n = r.size as f64;
            if !series[0].2.iter().any(|p| p.0 == n) {
                series[0].2.push((n, r.ours_ns / 1e6));
            }
            if let Some(p) = r.peer_ns {
                let k = series.len() - 1;
                match series.iter_mut().find(|s| s.0 == r.peer) {
                    Some(s) => s.2.push((n, p / 1e6)),
                    None => series.push((r.peer.clone(), colour(k), vec![(n, p / 1e6)])),
                }
            }
        }
        if series[0].2.len() < 2 {
            continue;
        }
        let xs: Vec<f64> = series.iter().flat_map(|s| s.2.iter().map(|p| p.0)).collect();
        let ys: Vec<f64> = series.iter().flat_map(|s| s.2.iter().map(|p| p.1)).collect();
        let (x0, x1) = (xs.iter().copied().fold(f64::INFINITY, f64::min), xs.iter().copied().fold(0.0, f64::max));
        let (y0, y1) = (ys.iter().copied().fold(f64::INFINITY, f64::min), ys.iter().copied().fold(0.0, f64::max));
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (640, 400)).into_drawing_area();
            root.fill(&WHITE).map_err(|e| e.to_string())?;
            let mut chart = ChartBuilder::on(&root)
                .caption(format!("{op} {curve}, {threads} thread(s): time per MSM"), ("sans-serif", 15))
                .margin(10)
                .x_label_area_size(35)
                .y_label_area_size(60)
                .build_cartesian_2d(
                    (x0 / 1.5..x1 * 1.5).log_scale().with_key_points(decade_ticks(x0 / 1.5, x1 * 1.5)),
                    (y0 / 1.5..y1 * 1.5).log_scale().with_key_points(decade_ticks(y0 / 1.5, y1 * 1.5)),
                )
                .map_err(|e| e.to_string())?;
            chart
                .configure_mesh()
                .x_desc("points")
                .y_desc("ms")
                .x_label_formatter(&|x: &f64| format!("{x:.0}"))
                .y_label_formatter(&|y: &f64| if *y >= 1.0 { format!("{y:.0}") } else { format!("{y}") })
                .label_style(("sans-serif", 12))
                .draw()
                .map_err(|e| e.to_string())?;
            for (name, c, mut pts) in series {
                pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                chart
                    .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))
                    .map_err(|e| e.to_string())?
                    .label(name)
                    .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], c.stroke_width(2)));
                chart.draw_series(pts.into_iter().map(move |p| Circle::new(p, 3, c.filled()))).map_err(|e| e.to_string())?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(("sans-serif", 12))
                .draw()
                .map_err(|e| e.to_string())?;
            root.present().map_err(|e| e.to_string())?;
        }
        out.push(svg);
    }
    Ok(out)
}

/// Strip anything before the `<svg` element (an XML declaration) so that the SVG can be
/// inlined in the page.
fn inline_svg(svg: &str) -> &str {
    svg.find("<svg").map_or(svg, |i| &svg[i..])
}

/// The self-contained report page: header, summary table, one ratio chart per group run (with
/// a peer), the MSM time-against-size charts, and the raw rows. The page is well-formed XHTML
/// with every chart inlined as SVG: no script, no stylesheet or font from the network.
pub fn html(meta: &Meta, rows: &[Row], summary: &Summary) -> Result<String, String> {
    let mut groups: Vec<String> = Vec::new();
    for r in rows {
        if !groups.contains(&r.group) {
            groups.push(r.group.clone());
        }
    }
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>zkforge bench report</title>\n");
    h.push_str("<style>\nbody { font-family: sans-serif; margin: 2em; color: #222; }\ntable { border-collapse: collapse; font-size: 13px; }\ntd, th { border: 1px solid #ccc; padding: 2px 6px; text-align: left; }\ntd.n { text-align: right; font-variant-numeric: tabular-nums; }\ntr.slow td { background: #fde8e8; }\nsection { margin-bottom: 2em; }\n</style>\n</head>\n<body>\n");
    let _ = writeln!(h, "<h1>zkforge bench report</h1>");
    let _ = writeln!(
        h,
        "<ul>\n<li>Machine: {}, {} CPU(s); run-time features: {}</li>\n<li>Backends: {}</li>\n<li>Commit {}, zkforge {}, {}</li>\n<li>Threads: {}; settings: {}</li>\n{}</ul>",
        escape(&meta.cpu),
        meta.cpus,
        escape(&meta.cpu_features.join(", ")),
        escape(&meta.backends.join("; ")),
        escape(&meta.commit),
        escape(&meta.version),
        escape(&meta.date),
        escape(&meta.threads),
        escape(&meta.settings),
        meta.external_peers.iter().map(|p| format!("<li>External peer: {}</li>\n", escape(p))).collect::<String>()
    );
    let _ = writeln!(h, "<p>Ratio = ours / peer on the same inputs in the same run: below 1.00 zkforge is faster.</p>");
    let _ = writeln!(h, "<section id=\"summary\">\n<h2>Summary</h2>\n<p>{} Peers named <code>zkforge-*</code> are zkforge itself in another configuration (thread scaling, ablations).</p>\n<table>", escape(&headline(summary)));
    let _ = writeln!(h, "<tr><th>group</th><th>peer</th><th>rows</th><th>geomean</th><th>best</th><th>worst</th><th>slower rows</th></tr>");
    for g in &summary.groups {
        let _ = writeln!(
            h,
            "<tr{}><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{:.2}</td><td>{:.2} {}</td><td>{:.2} {}</td><td>{}</td></tr>",
            if g.geomean > 1.0 && !g.internal { " class=\"slow\"" } else { "" },
            escape(&g.group),
            escape(&g.peer),
            g.rows,
            g.geomean,
            g.best.ratio,
            escape(&g.best.name),
            g.worst.ratio,
            escape(&g.worst.name),
            escape(&g.slower.iter().map(|n| format!("{} ({:.2})", n.name, n.ratio)).collect::<Vec<_>>().join(", "))
        );
    }
    let _ = writeln!(h, "</table>");
    if summary.peerless_rows > 0 {
        let _ = writeln!(h, "<p>{} row(s) have no runnable peer (ours alone).</p>", summary.peerless_rows);
    }
    let _ = writeln!(h, "</section>");
    for g in &groups {
        if let Some(svg) = ratio_chart(g, rows)? {
            let _ = writeln!(h, "<section class=\"chart\" id=\"chart-{0}\">\n<h2>{0}</h2>\n{1}\n</section>", escape(g), inline_svg(&svg));
        }
        if g == "msm" {
            let charts = msm_charts(rows)?;
            if !charts.is_empty() {
                let _ = writeln!(h, "<section id=\"msm-sizes\">\n<h2>msm: time against size</h2>");
                for svg in charts {
                    let _ = writeln!(h, "<div class=\"msm-chart\">{}</div>", inline_svg(&svg));
                }
                let _ = writeln!(h, "</section>");
            }
        }
    }
    let _ = writeln!(h, "<section id=\"rows\">\n<h2>All rows</h2>\n<table>\n<tr><th>group</th><th>op</th><th>curve</th><th>size</th><th>thr</th><th>ours</th><th>peer</th><th>peer time</th><th>ratio</th></tr>");
    for r in rows {
        let slow = r.ratio.is_some_and(|x| x > 1.0);
        let _ = writeln!(
            h,
            "<tr{}><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            if slow { " class=\"slow\"" } else { "" },
            escape(&r.group),
            escape(&r.op),
            escape(&r.curve),
            r.size,
            r.threads,
            escape(&human_ns(r.ours_ns)),
            escape(&r.peer),
            escape(&r.peer_ns.map_or_else(|| "-".into(), human_ns)),
            r.ratio.map_or_else(|| "-".into(), |x| format!("{x:.2}"))
        );
    }
    let _ = writeln!(h, "</table>\n</section>\n</body>\n</html>");
    Ok(h)
}
