//! The run report of `zkforge bench` on fixed rows: the summary arithmetic (geometric means,
//! best and worst rows, the slower rows), `-` and JSON `null` for rows without a peer, the
//! Markdown block spliced between its markers with the prose kept, and the HTML page parsed as
//! well-formed XML with one ratio chart per group run and one MSM chart per MSM series.

use zkforge_bench::harness::{row_line, table, Row};
use zkforge_bench::report::{self, Meta, MD_BEGIN, MD_END};

fn row(group: &str, op: &str, size: usize, peer: &str, ours: f64, peer_ns: Option<f64>) -> Row {
    Row {
        group: group.into(),
        op: op.into(),
        curve: "bls12_381".into(),
        size,
        threads: 1,
        ours_ns: ours,
        peer: peer.into(),
        peer_ns,
        ratio: peer_ns.map(|p| ours / p),
        gas: None,
    }
}

fn rows() -> Vec<Row> {
    vec![
        row("field", "fp_mul", 1, "blst", 10.0, Some(20.0)),   // 0.5
        row("field", "fp_inv", 1, "blst", 40.0, Some(20.0)),   // 2.0
        row("field", "fp_sqrt", 1, "blst", 30.0, Some(30.0)),  // 1.0
        row("field", "fp_mul", 1, "arkworks", 10.0, Some(40.0)), // 0.25
        row("msm", "g1_msm", 16, "blst", 1e6, Some(2e6)),
        row("msm", "g1_msm", 256, "blst", 4e6, Some(5e6)),
        row("msm", "g1_msm", 4096, "blst", 3e7, Some(2.5e7)), // 1.2
        row("hashsig", "keygen", 256, "-", 5e6, None),
        row("msm", "g1_msm", 4096, "zkforge-1thread", 3e7, Some(2e7)), // 1.5, internal
    ]
}

fn meta() -> Meta {
    Meta {
        cpu: "Test CPU <&>".into(),
        cpus: 2,
        cpu_features: vec!["ADX".into()],
        backends: vec!["field: test".into()],
        threads: "1".into(),
        commit: "abc".into(),
        date: "2026-11-24T00:00:00Z".into(),
        version: "0.1.0".into(),
        settings: "test".into(),
        external_peers: vec!["gnark-crypto v0 <go>".into()],
    }
}

#[test]
fn summary_arithmetic() {
    let s = report::summarize(&rows());
    assert_eq!(s.peerless_rows, 1);
    let keys: Vec<(&str, &str)> = s.groups.iter().map(|g| (g.group.as_str(), g.peer.as_str())).collect();
    assert_eq!(keys, vec![("field", "blst"), ("field", "arkworks"), ("msm", "blst"), ("msm", "zkforge-1thread")]);
    assert_eq!(s.groups.iter().map(|g| g.internal).collect::<Vec<_>>(), vec![false, false, false, true]);
    let fb = &s.groups[0];
    assert_eq!(fb.rows, 3);
    // geomean of 0.5, 2.0, 1.0 is 1.0
    assert!((fb.geomean - 1.0).abs() < 1e-12, "{}", fb.geomean);
    assert_eq!((fb.best.name.as_str(), fb.best.ratio), ("fp_mul bls12_381", 0.5));
    assert_eq!((fb.worst.name.as_str(), fb.worst.ratio), ("fp_inv bls12_381", 2.0));
    // ratio exactly 1.0 is not slower
    assert_eq!(fb.slower.iter().map(|n| n.name.as_str()).collect::<Vec<_>>(), vec!["fp_inv bls12_381"]);
    let fa = &s.groups[1];
    assert_eq!((fa.rows, fa.geomean, fa.slower.len()), (1, 0.25, 0));
    let m = &s.groups[2];
    let want = (0.5f64 * 0.8 * 1.2).powf(1.0 / 3.0);
    assert!((m.geomean - want).abs() < 1e-12);
    assert_eq!(m.worst.name, "g1_msm bls12_381 n=4096");
    assert_eq!(m.best.name, "g1_msm bls12_381 n=16");
    let text = report::summary_text(&s);
    // the internal row (zkforge against itself) is not counted as a peer row
    assert!(text.contains("on 2 of 7 rows with a peer"), "{text}");
    assert!(!text.contains("1.50  g1_msm"), "{text}");
    assert_eq!(report::headline(&s), "zkforge is faster or equal on 5 of 7 rows with a peer, slower on 2.");
    assert!(text.contains("1 row(s) have no runnable peer"), "{text}");
}

#[test]
fn all_faster_summary() {
    let s = report::summarize(&rows()[..1]);
    assert!(report::summary_text(&s).contains("zkforge is faster or equal on all 1 rows"));
    let empty = report::summarize(&[]);
    assert!(empty.groups.is_empty());
    assert!(report::summary_text(&empty).contains("No row has a peer."));
}

#[test]
fn peerless_rows_print_dash_and_null() {
    let rs = rows();
    let t = table(&rs);
    assert!(!t.contains("NaN"), "{t}");
    let line = row_line(&rs[7]);
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(&fields[fields.len() - 3..], &["-", "-", "-"], "{line}");
    let s = report::summarize(&rs);
    let m = meta();
    let json = serde_json::to_value(report::Document { meta: &m, rows: &rs, summary: &s }).expect("json");
    let r7 = &json["rows"][7];
    assert!(r7["peer_ns"].is_null() && r7["ratio"].is_null(), "{r7}");
    assert_eq!(json["rows"][0]["ratio"], 0.5);
    assert_eq!(json["meta"]["commit"], "abc");
    assert_eq!(json["meta"]["cpus"], 2);
    assert_eq!(json["summary"]["peerless_rows"], 1);
    assert!(!serde_json::to_string(&json).expect("text").contains("NaN"));
}

#[test]
fn markdown_splices_between_markers() {
    let rs = rows();
    let s = report::summarize(&rs);
    let block = report::markdown(&meta(), &rs, &s);
    assert!(block.starts_with(MD_BEGIN) && block.ends_with(MD_END));
    assert!(block.contains("| fp_mul | bls12_381 | 1 | 1 | 10.0 ns | blst | 20.0 ns | 0.50 |"), "{block}");
    assert!(block.contains("| keygen | bls12_381 | 256 | 1 | 5.00 ms | - | - | - |"), "{block}");
    assert!(block.contains("#### field") && block.contains("#### msm") && block.contains("#### hashsig"));
    let doc = format!("# Title\n\nprose before\n\n{MD_BEGIN}\nold table\n{MD_END}\n\nprose after\n");
    let out = report::splice_markdown(&doc, &block).expect("markers");
    assert!(out.starts_with("# Title\n\nprose before\n\n"));
    assert!(out.ends_with("\n\nprose after\n"));
    assert!(!out.contains("old table"));
    // splicing again replaces the block, it does not nest
    let again = report::splice_markdown(&out, &block).expect("markers");
    assert_eq!(again, out);
    assert!(report::splice_markdown("no markers", &block).is_err());
    assert!(report::splice_markdown(&format!("{MD_END}\n{MD_BEGIN}"), &block).is_err());
}

#[test]
fn html_is_well_formed_with_one_chart_per_group() {
    let rs = rows();
    let s = report::summarize(&rs);
    let page = report::html(&meta(), &rs, &s).expect("report");
    let doc = roxmltree::Document::parse_with_options(&page, roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() })
        .unwrap_or_else(|e| panic!("report is not well-formed: {e}"));
    let sections: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("section") && n.attribute("class") == Some("chart")).collect();
    // field and msm have peers; hashsig has none, so no ratio chart
    let ids: Vec<&str> = sections.iter().filter_map(|n| n.attribute("id")).collect();
    assert_eq!(ids, vec!["chart-field", "chart-msm"]);
    for sec in &sections {
        assert_eq!(sec.descendants().filter(|n| n.tag_name().name() == "svg").count(), 1);
    }
    // one MSM time-against-size chart (g1_msm, bls12_381, 1 thread)
    let msm = doc.descendants().filter(|n| n.attribute("class") == Some("msm-chart")).count();
    assert_eq!(msm, 1);
    // every row is in the raw table, and the escaped CPU name reads back as written
    let trs = doc.descendants().filter(|n| n.has_tag_name("tr")).count();
    assert!(trs > rs.len());
    assert!(doc.descendants().any(|n| n.text().is_some_and(|t| t.contains("Test CPU <&>"))));
    // self-contained: nothing loaded from elsewhere
    assert!(!page.contains("<script") && !page.contains("http://cdn") && !page.contains("https://"));
}

#[test]
fn dates() {
    assert_eq!(report::civil_from_days(0), (1970, 1, 1));
    assert_eq!(report::civil_from_days(11_016), (2000, 2, 29));
    assert_eq!(report::civil_from_days(20_781), (2026, 11, 24));
    assert_eq!(report::civil_from_days(-1), (1969, 12, 31));
}

#[test]
fn unknown_group_is_an_error() {
    let e = zkforge_bench::group_builders(&["fild".to_string()], zkforge_bench::Scale::default()).err().expect("error");
    assert!(e.contains("unknown group `fild`") && e.contains("field"), "{e}");
    let all = zkforge_bench::group_builders(&[], zkforge_bench::Scale { quick: true }).expect("all");
    assert_eq!(all.iter().map(|(g, _)| *g).collect::<Vec<_>>(), zkforge_bench::GROUPS.to_vec());
    // the GPU group runs only when named
    let gpu = zkforge_bench::group_builders(&["gpu".to_string()], zkforge_bench::Scale { quick: true }).expect("gpu");
    assert_eq!(gpu.iter().map(|(g, _)| *g).collect::<Vec<_>>(), vec!["gpu"]);
}
