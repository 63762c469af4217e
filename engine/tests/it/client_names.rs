//! A client's name as `graph --facts` shows it: a member chain split over lines (gotify/server's
//! web UI writes `axios\n  .create()\n  .post(…)`) is named as written on one line, `axios.create`,
//! never with the line break's space (`axios .create`). A bound library's probable use at a
//! bare import names the library the spec binds, as every other fact of it does, not the
//! namespace imported.

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

/// ardalis/CleanArchitecture binds `clients: "MailKit"` and gives every Infrastructure file
/// `global using MailKit.Net.Smtp;` in a file of its own: that file's probable use was the
/// technology `MailKit.Net.Smtp`, while the sender's construction was `MailKit`.
#[test]
fn a_bound_library_imported_alone_is_named_by_its_binding() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            (
                "architecture.ag",
                "node app : server\nresource mail : external_api { clients: \"MailKit\" }\ncomponent Infra { runs_on: app paths: \"src/**\" }\ninvariant Mail { deny flow Infra -> mail }\n",
            ),
            ("src/GlobalUsings.cs", "global using MailKit.Net.Smtp;\n"),
            (
                "src/Sender.cs",
                "namespace Shop;\n\npublic class Sender\n{\n    public void Send() { using var client = new MailKit.Net.Smtp.SmtpClient(); }\n}\n",
            ),
        ],
    );
    let graph = graph_document(project.path());
    let mut uses = technology_uses(&graph);
    uses.sort_unstable();
    assert_eq!(
        uses,
        vec![
            ("src/GlobalUsings.cs", "probable", "MailKit", "MailKit"),
            ("src/Sender.cs", "definite", "MailKit", "MailKit"),
        ]
    );
}

/// ntfy binds `clients: "github.com/stripe/stripe-go/v74"`: its server calls Stripe's resource
/// packages, while its user package only keeps and converts Stripe's enum types
/// (`stripe.SubscriptionStatus(s)`). The catalogue knows the library, so those are no use, not
/// even a probable one at the import.
#[test]
fn a_bound_go_library_the_catalogue_knows_is_used_at_its_clients_only() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            (
                "architecture.ag",
                "node app : server\nnode stripe : rest_api { clients: \"github.com/stripe/stripe-go/v74\" }\ncomponent Server { runs_on: app paths: \"server/**\" }\ncomponent User { runs_on: app paths: \"user/**\" }\ninvariant Payments { deny flow User -> stripe }\n",
            ),
            ("go.mod", "module example.com/notify\n\ngo 1.22\n"),
            (
                "user/types.go",
                "package user\n\nimport \"github.com/stripe/stripe-go/v74\"\n\ntype Billing struct {\n\tStatus stripe.SubscriptionStatus\n}\n\nfunc Read(status string) Billing {\n\treturn Billing{Status: stripe.SubscriptionStatus(status)}\n}\n",
            ),
            (
                "server/pay.go",
                "package server\n\nimport \"github.com/stripe/stripe-go/v74/customer\"\n\nfunc Pay(id string) {\n\tcustomer.Get(id, nil)\n}\n",
            ),
        ],
    );
    let graph = graph_document(project.path());
    let uses: Vec<(&str, &str)> = technology_uses(&graph)
        .into_iter()
        .map(|(file, confidence, _, _)| (file, confidence))
        .collect();
    assert_eq!(uses, vec![("server/pay.go", "definite")]);
    let edges: Vec<(&str, &str)> = graph["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|edge| {
            (
                edge["from"].as_str().unwrap_or_default(),
                edge["to"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(edges, vec![("Server", "stripe")]);
}

/// (file, confidence, technology, package) of every `accesses_technology` fact of a graph
/// document.
fn technology_uses(graph: &serde_json::Value) -> Vec<(&str, &str, &str, &str)> {
    graph["facts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|fact| fact["kind"] == "accesses_technology")
        .map(|fact| {
            (
                fact["evidence"]["file"].as_str().unwrap_or_default(),
                fact["confidence"].as_str().unwrap_or_default(),
                fact["technology"].as_str().unwrap_or_default(),
                fact["properties"]["package"].as_str().unwrap_or_default(),
            )
        })
        .collect()
}
