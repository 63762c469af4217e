//! A client's name as `graph --facts` shows it: a member chain split over lines (gotify/server's
//! web UI writes `axios\n  .create()\n  .post(…)`) is named as written on one line, `axios.create`,
//! never with the line break's space (`axios .create`).

use super::{graph_document, write_files};

#[test]
fn a_member_chain_split_over_lines_names_its_client_on_one_line() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            (
                "architecture.ag",
                "node app : server\nnode api : rest_api\ncomponent Ui { runs_on: app paths: \"ui/**\" }\ninvariant Calls { deny flow Ui -> api }\n",
            ),
            (
                "ui/store.ts",
                "import axios from 'axios';\n\nexport const load = () =>\n  axios\n    .create()\n    .get('https://api.example.com/items');\n",
            ),
        ],
    );
    let graph = graph_document(project.path());
    let mut clients: Vec<&str> = graph["facts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|fact| fact["kind"] == "accesses_technology")
        .filter_map(|fact| fact["properties"]["client"].as_str())
        .collect();
    clients.sort_unstable();
    assert_eq!(clients, vec!["axios.create"]);
}
