//! Bound infrastructure (bindings in policies/LANGUAGE.md): `clients` and `urls` on nodes and
//! resources, same-origin calls, the probable fan-out with `ambiguous-technology-target`,
//! `unresolved-target` once per name, and `vacuous-rule`.

use std::path::Path;

use engine::ScopeRequest;
use serde_json::Value;

use crate::{check, run_cli};

/// A project in a temporary folder: the spec and the files.
fn project(spec: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("architecture.ag"), spec).unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn check_all(root: &Path) -> Value {
    check(root, ScopeRequest::All, 2)
}

/// `(from, to, file)` of every violation.
fn findings(verdict: &Value) -> Vec<(String, String, String)> {
    verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| {
            let detected = &violation["detected"];
            (
                detected["from"].as_str().unwrap_or_default().to_owned(),
                detected["to"].as_str().unwrap_or_default().to_owned(),
                detected["file"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn warnings<'v>(verdict: &'v Value, code: &str) -> Vec<&'v Value> {
    verdict["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|warning| warning["code"] == code)
        .collect()
}

fn message(warning: &Value) -> &str {
    warning["message"].as_str().unwrap()
}

const WEB_AND_API: &str = "\
node browser : edge_desktop { trust: untrusted }
node app : server { trust: trusted }
contract OrdersApi {
  GET \"/api/orders\"
}
component Ui { runs_on: browser paths: \"web/**\" }
component Api { runs_on: app paths: \"api/**\" implements: OrdersApi }
";

#[test]
fn a_same_origin_fetch_calls_its_own_backend_and_no_unrelated_api() {
    let spec = format!(
        "{WEB_AND_API}node github : rest_api\ninvariant I {{\n  deny flow Ui -> github\n  deny flow Ui -> Api\n}}\n"
    );
    let dir = project(
        &spec,
        &[
            (
                "web/orders.ts",
                "export const load = () => fetch('/api/orders');\n",
            ),
            (
                "web/relative.ts",
                "export const other = () => fetch('api/unknown');\n",
            ),
            (
                "api/server.ts",
                "import express from 'express';\nconst app = express();\napp.get('/api/orders', (req, res) => res.json([]));\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    // The call flows into the component that serves the path, never into the declared API.
    assert_eq!(
        findings(&verdict),
        [(
            "Ui".to_owned(),
            "Api".to_owned(),
            "web/orders.ts".to_owned()
        )]
    );
    assert!(warnings(&verdict, "probable-fact").is_empty());
    assert!(warnings(&verdict, "unresolved-target").is_empty());
    assert!(warnings(&verdict, "ambiguous-technology-target").is_empty());
    // No fact targets `github` now: the rule cannot fail, and says so.
    let vacuous = warnings(&verdict, "vacuous-rule");
    assert_eq!(vacuous.len(), 1, "{vacuous:?}");
    assert_eq!(
        message(vacuous[0]),
        "`deny flow Ui -> github` cannot fail on this project: no fact targets node `github` (category `rest_api`): no client of it was recognised; if the code uses a library lintel does not know, bind it with `clients: \"<library>\"` on `github`, or its requests with `urls: \"https://host/**\"` (or the variable that holds its URL) on `github`"
    );
}

/// A request whose host is only a variable, to a path the project serves itself, calls the
/// project's own server: linkwarden's mobile app and React Query hooks fetch
/// `${instance}/api/v1/collections` of a self-hosted instance, which its Next.js API routes
/// serve, and each was an access of the declared third-party `external_api` resource. A path
/// the project does not serve stays an outside API's.
#[test]
fn a_variable_host_with_an_own_route_calls_the_project_itself() {
    let spec = "\
node app : server
resource third_party : external_api
component Api { runs_on: app paths: \"web/**\" }
component Router { runs_on: app paths: \"router/**\" }
invariant I {
  deny flow Router -> third_party
}
";
    let dir = project(
        spec,
        &[
            ("web/package.json", "{\"dependencies\": {\"next\": \"14.0.0\"}}\n"),
            (
                "web/pages/api/v1/collections.ts",
                "export default function handler(req: any, res: any) { res.json([]); }\n",
            ),
            (
                "router/collections.ts",
                "export const load = (instance: string) => fetch(`${instance}/api/v1/collections`);\n",
            ),
            (
                "router/billing.ts",
                "export const charge = (base: string) => fetch(`${base}/v1/charges`, { method: 'POST' });\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    assert_eq!(
        findings(&verdict),
        [(
            "Router".to_owned(),
            "third_party".to_owned(),
            "router/billing.ts".to_owned()
        )]
    );
}

/// casdoor's web UI calls its Go backend at `${Setting.ServerUrl}/api/…`, and the backend
/// registers those paths with Beego's `web.Router`: 251 of the UI's 271 `fetch` calls were
/// accesses of the declared outside API while Beego's routes went unread. A path no route
/// serves stays an outside API's.
#[test]
fn a_beego_route_makes_the_ui_calls_to_its_path_the_projects_own() {
    let spec = "\
node server : server
node browser : edge_desktop
node outside : rest_api
component Api { runs_on: server paths: \"routers/**\" }
component Web { runs_on: browser paths: \"web/**\" }
invariant I {
  deny flow Web -> outside
}
";
    let dir = project(
        spec,
        &[
            ("go.mod", "module example.com/casdoor\n\ngo 1.22\n"),
            (
                "routers/router.go",
                "package routers\n\nimport \"github.com/beego/beego/v2/server/web\"\n\ntype ApiController struct{}\n\nfunc Init() {\n\tweb.Router(\"/api/get-users\", &ApiController{}, \"GET:GetUsers\")\n\tweb.Router(\"/api/notify-payment/?:owner/?:payment\", &ApiController{}, \"POST:NotifyPayment\")\n}\n",
            ),
            (
                "web/src/UserBackend.js",
                "export function getUsers(serverUrl) {\n  return fetch(`${serverUrl}/api/get-users`, { method: 'GET' });\n}\n\nexport function notify(serverUrl, owner, name) {\n  return fetch(`${serverUrl}/api/notify-payment/${owner}/${name}`, { method: 'POST' });\n}\n",
            ),
            (
                "web/src/Terms.js",
                "export const terms = (base) => fetch(`${base}/legal/terms.html`);\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    assert_eq!(
        findings(&verdict),
        [(
            "Web".to_owned(),
            "outside".to_owned(),
            "web/src/Terms.js".to_owned()
        )]
    );
}

#[test]
fn urls_give_each_rest_api_only_its_own_calls() {
    let spec = "\
node app : server
node payments : rest_api { urls: \"https://payments.internal/**\" }
node alerts : rest_api { urls: \"https://alertmanager:9093/**\", \"ALERTMANAGER_URL\" }
component Billing { runs_on: app paths: \"billing/**\" }
component Monitor { runs_on: app paths: \"monitor/**\" }
invariant I {
  deny flow Billing -> alerts
  deny flow Monitor -> payments
  deny flow Billing -> payments
  deny flow Monitor -> alerts
}
";
    let dir = project(
        spec,
        &[
            (
                "billing/charge.ts",
                "export const charge = () => fetch('https://payments.internal/v1/charges?x=1', { method: 'POST' });\n",
            ),
            (
                "monitor/alert.ts",
                "export const alert = () => fetch(`${process.env.ALERTMANAGER_URL}/api/v2/alerts`);\n",
            ),
            (
                "monitor/alert.py",
                "import os\nimport requests\n\ndef silence():\n    return requests.post(f\"{os.environ['ALERTMANAGER_URL']}/api/v2/silences\")\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    let mut found = findings(&verdict);
    found.sort();
    assert_eq!(
        found,
        [
            (
                "Billing".to_owned(),
                "payments".to_owned(),
                "billing/charge.ts".to_owned()
            ),
            (
                "Monitor".to_owned(),
                "alerts".to_owned(),
                "monitor/alert.py".to_owned()
            ),
            (
                "Monitor".to_owned(),
                "alerts".to_owned(),
                "monitor/alert.ts".to_owned()
            ),
        ]
    );
    assert!(warnings(&verdict, "ambiguous-technology-target").is_empty());
    assert!(warnings(&verdict, "probable-fact").is_empty());
}

#[test]
fn two_databases_without_bindings_are_probable_targets_with_a_warning() {
    let spec = "\
node app : server
node orders_db : postgres
node reports_db : postgres
component Api { runs_on: app paths: \"api/**\" }
invariant I { deny flow Api -> orders_db }
";
    let dir = project(
        spec,
        &[
            (
                "api/a.ts",
                "import { Pool } from 'pg';\nexport const a = new Pool();\n",
            ),
            (
                "api/b.ts",
                "import { Pool } from 'pg';\nexport const b = new Pool();\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    assert!(
        findings(&verdict).is_empty(),
        "a probable edge does not block"
    );
    let probable = warnings(&verdict, "probable-fact");
    assert_eq!(probable.len(), 2, "{probable:?}");
    let ambiguous = warnings(&verdict, "ambiguous-technology-target");
    assert_eq!(ambiguous.len(), 1, "{ambiguous:?}");
    assert_eq!(ambiguous[0]["file"], "api/a.ts");
    assert_eq!(
        message(ambiguous[0]),
        "`postgres` may be any of `orders_db`, `reports_db`: each of its 2 facts is a probable access to every one (first in `api/a.ts`); bind each to its code with `clients` (these uses come from `pg`) or, for HTTP calls, `urls`"
    );
    // Binding one database makes the other the single candidate of the rest, and the edge definite.
    let bound = spec.replace(
        "node reports_db : postgres",
        "node reports_db : postgres { clients: \"knex\" }",
    );
    std::fs::write(dir.path().join("architecture.ag"), bound).unwrap();
    let verdict = check_all(dir.path());
    assert_eq!(findings(&verdict).len(), 2);
    assert!(warnings(&verdict, "ambiguous-technology-target").is_empty());
}

#[test]
fn the_node_a_component_runs_on_is_no_target_of_its_own_outside_calls() {
    // petclinic's gateway runs on an API gateway node and calls an outside API with an unbound
    // HTTP client: the call is no use of the gateway's own host, so the one other API is the
    // single candidate and the edge is definite.
    let spec = "\
node gw : api_gateway
node payments : rest_api
component Gateway { runs_on: gw paths: \"gateway/**\" }
invariant I { deny flow Gateway -> payments }
";
    let dir = project(
        spec,
        &[(
            "gateway/pay.ts",
            "import axios from 'axios';\nexport const pay = () => axios.post('https://pay.example.com/charge', {});\n",
        )],
    );
    let verdict = check_all(dir.path());
    assert_eq!(
        findings(&verdict),
        [(
            "Gateway".to_owned(),
            "payments".to_owned(),
            "gateway/pay.ts".to_owned()
        )]
    );
    assert!(warnings(&verdict, "ambiguous-technology-target").is_empty());
    // With no other API declared, the call has no target: no edge to the gateway's own host.
    let alone = spec.replace("node payments : rest_api\n", "").replace(
        "invariant I { deny flow Gateway -> payments }",
        "invariant I { deny flow Gateway -> gw }",
    );
    std::fs::write(dir.path().join("architecture.ag"), alone).unwrap();
    let verdict = check_all(dir.path());
    assert!(findings(&verdict).is_empty(), "{:?}", findings(&verdict));
    assert_eq!(warnings(&verdict, "unresolved-target").len(), 1);
}

#[test]
fn clients_make_an_unknown_library_a_definite_access() {
    let spec = "\
node browser : edge_desktop
node app : server
node db : postgres { clients: \"sequelize\" }
node jobs : queue { clients: \"bull\" }
node broker : message_queue { clients: \"celery\" }
component Ui { runs_on: browser paths: \"web/**\" }
component Worker { runs_on: app paths: \"worker/**\" }
invariant I {
  deny flow Ui -> db
  deny flow Ui -> jobs
  deny flow Worker -> broker
}
";
    let dir = project(
        spec,
        &[
            (
                "web/db.ts",
                "import { Sequelize } from 'sequelize';\nexport const db = new Sequelize('postgres://x');\n",
            ),
            (
                "web/jobs.js",
                "const Queue = require('bull');\nmodule.exports = new Queue('mail');\n",
            ),
            ("worker/tasks.py", "import celery\n"),
        ],
    );
    let verdict = check_all(dir.path());
    let mut found = findings(&verdict);
    found.sort();
    assert_eq!(
        found,
        [
            ("Ui".to_owned(), "db".to_owned(), "web/db.ts".to_owned()),
            ("Ui".to_owned(), "jobs".to_owned(), "web/jobs.js".to_owned()),
        ]
    );
    for violation in verdict["violations"].as_array().unwrap() {
        assert_eq!(violation["detected"]["confidence"], "definite");
    }
    // A bare Python import of a bound library is a probable access at that import.
    let probable = warnings(&verdict, "probable-fact");
    assert_eq!(probable.len(), 1, "{probable:?}");
    assert_eq!(probable[0]["file"], "worker/tasks.py");
    assert!(warnings(&verdict, "vacuous-rule").is_empty());
}

#[test]
fn a_listed_library_overrides_the_catalogue() {
    let spec = "\
node app : server
node orders_db : postgres { clients: \"pg\" }
node reports_db : postgres
component Api { runs_on: app paths: \"api/**\" }
invariant I {
  deny flow Api -> orders_db
  deny flow Api -> reports_db
}
";
    let dir = project(
        spec,
        &[(
            "api/a.ts",
            "import { Pool } from 'pg';\nexport const a = new Pool();\n",
        )],
    );
    let verdict = check_all(dir.path());
    assert_eq!(
        findings(&verdict),
        [(
            "Api".to_owned(),
            "orders_db".to_owned(),
            "api/a.ts".to_owned()
        )]
    );
    let vacuous = warnings(&verdict, "vacuous-rule");
    assert_eq!(vacuous.len(), 1);
    assert_eq!(vacuous[0]["rule"], "deny flow Api -> reports_db");
}

/// A binding of a module below a package is the longer one: `aws-sdk/clients/s3` beside a
/// node that binds all of `aws-sdk` takes the uses of that module (Wiki.js's S3 storage beside
/// its CloudSearch engine), for a construction and for a bare import alike; the package's own
/// uses stay the shorter binding's.
#[test]
fn a_binding_of_a_module_below_a_package_takes_its_imports() {
    let spec = "\
node app : server
node files : s3_bucket { clients: \"aws-sdk/clients/s3\" }
node cloudsearch : rest_api { clients: \"aws-sdk\" }
component Storage { runs_on: app paths: \"storage/**\" }
component Search { runs_on: app paths: \"search/**\" }
invariant I {
  deny flow Storage -> cloudsearch
  deny flow Search -> files
  deny flow Storage -> files
  deny flow Search -> cloudsearch
}
";
    let dir = project(
        spec,
        &[
            (
                "storage/s3.js",
                "const S3 = require('aws-sdk/clients/s3');\nmodule.exports = new S3({});\n",
            ),
            (
                "storage/bare.js",
                "const S3 = require('aws-sdk/clients/s3');\nmodule.exports = S3;\n",
            ),
            (
                "search/engine.js",
                "const AWS = require('aws-sdk');\nmodule.exports = new AWS.CloudSearchDomain({});\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    let mut found = findings(&verdict);
    found.sort();
    let expected = [
        ("Search", "cloudsearch", "search/engine.js"),
        ("Storage", "files", "storage/s3.js"),
    ];
    assert_eq!(
        found,
        expected.map(|(from, to, file)| (from.to_owned(), to.to_owned(), file.to_owned()))
    );
    // The bare import is a probable use of the module's binding, never of the package's.
    let probable: Vec<&str> = warnings(&verdict, "probable-fact")
        .into_iter()
        .map(message)
        .collect();
    assert!(
        probable
            .iter()
            .any(|message| message.contains("`Storage` depends on `files`")),
        "{probable:?}"
    );
    assert!(
        !probable
            .iter()
            .any(|message| message.contains("cloudsearch")),
        "{probable:?}"
    );
}

/// A bound library whose catalogue entry says it also exports plain values keeps them out of
/// the binding (documenso binds `@prisma/client`, whose enums and `Prisma.Decimal` its browser
/// components use): the browser's imports of them are no access, not even a probable one,
/// while the server's `PrismaClient` is.
#[test]
fn a_bound_library_plain_values_are_no_access() {
    let spec = "\
node browser : edge_desktop
node app : server
node db : postgres { clients: \"@prisma/client\" }
component Ui { runs_on: browser paths: \"ui/**\" }
component Server { runs_on: app paths: \"server/**\" }
invariant I {
  deny flow Ui -> db
  deny flow Server -> db
}
";
    let dir = project(
        spec,
        &[
            (
                "ui/fields.tsx",
                "import { FieldType, Prisma } from '@prisma/client';\n\
                 export const kinds = [FieldType.SIGNATURE];\n\
                 export const at = (x: number) => new Prisma.Decimal(x);\n",
            ),
            (
                "ui/roles.ts",
                "import { RecipientRole } from '@prisma/client';\nexport const role = RecipientRole.SIGNER;\n",
            ),
            (
                "server/db.ts",
                "import { PrismaClient } from '@prisma/client';\nexport const prisma = new PrismaClient();\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    assert_eq!(
        findings(&verdict),
        [(
            "Server".to_owned(),
            "db".to_owned(),
            "server/db.ts".to_owned()
        )]
    );
    assert!(warnings(&verdict, "probable-fact").is_empty());
}

/// An AWS SDK v3 command is a request value the client sends: building one is no access of the
/// bound store, nor is importing only commands (linkwarden binds `@aws-sdk/client-s3`; each of
/// its storage helpers builds a `PutObjectCommand`, `GetObjectCommand`…, and the one S3 client is
/// constructed in `s3Client.ts`). Constructing the client still is.
#[test]
fn a_bound_aws_sdk_command_is_no_access() {
    let spec = "\
node app : server
node files : object_store { clients: \"@aws-sdk/client-s3\" }
component Jobs { runs_on: app paths: \"jobs/**\" }
component Storage { runs_on: app paths: \"storage/**\" }
invariant I {
  deny flow Jobs -> files
  deny flow Storage -> files
}
";
    let dir = project(
        spec,
        &[
            (
                "jobs/request.ts",
                "import { PutObjectCommand } from '@aws-sdk/client-s3';\n\
                 export const put = (key: string) => new PutObjectCommand({ Bucket: 'b', Key: key });\n",
            ),
            (
                "storage/client.ts",
                "import { S3 } from '@aws-sdk/client-s3';\nexport const s3 = new S3({});\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    assert_eq!(
        findings(&verdict),
        [(
            "Storage".to_owned(),
            "files".to_owned(),
            "storage/client.ts".to_owned()
        )]
    );
    assert!(warnings(&verdict, "probable-fact").is_empty());
}

/// An AWS SDK v3 command the file sends is a use of the store, whichever file made the client
/// (papermark's upload route: `client.send(new CopyObjectCommand(params))` with a client from
/// `lib/files`): sent as the argument of `.send(…)`, or held by a `const` the same block sends.
/// Bound or not, a command built and returned unsent is still none.
#[test]
fn an_aws_sdk_command_the_file_sends_is_a_use() {
    for binding in ["{ clients: \"@aws-sdk/client-s3\" }", ""] {
        let spec = format!(
            "\
node app : server
node files : object_store {binding}
component Api {{ runs_on: app paths: \"api/**\" }}
component Jobs {{ runs_on: app paths: \"jobs/**\" }}
invariant I {{
  deny flow Api -> files
  deny flow Jobs -> files
}}
"
        );
        let dir = project(
            &spec,
            &[
                (
                    "api/copy.ts",
                    "import { CopyObjectCommand } from '@aws-sdk/client-s3';\n\
                     import { clientFor } from '../storage/client';\n\
                     export async function copy(key: string) {\n\
                       const client = clientFor(key);\n\
                       await client.send(new CopyObjectCommand({ Bucket: 'b', Key: key, CopySource: key }));\n\
                     }\n",
                ),
                (
                    "api/put.ts",
                    "import { PutObjectCommand } from '@aws-sdk/client-s3';\n\
                     import { s3 } from '../storage/client';\n\
                     export async function put(key: string) {\n\
                       const command = new PutObjectCommand({ Bucket: 'b', Key: key });\n\
                       return s3.send( command );\n\
                     }\n",
                ),
                (
                    "jobs/request.ts",
                    "import { GetObjectCommand } from '@aws-sdk/client-s3';\n\
                     import { send } from '../storage/client';\n\
                     export const get = (key: string) => new GetObjectCommand({ Bucket: 'b', Key: key });\n\
                     export async function later(key: string) {\n\
                       const command = new GetObjectCommand({ Bucket: 'b', Key: key });\n\
                       return send(command);\n\
                     }\n",
                ),
                (
                    "storage/client.ts",
                    "import { S3 } from '@aws-sdk/client-s3';\nexport const s3 = new S3({});\n\
                     export const clientFor = (_key: string) => s3;\n\
                     export const send = (command: any) => s3.send(command);\n",
                ),
            ],
        );
        let verdict = check_all(dir.path());
        let mut found = findings(&verdict);
        found.sort();
        assert_eq!(
            found,
            [
                (
                    "Api".to_owned(),
                    "files".to_owned(),
                    "api/copy.ts".to_owned()
                ),
                (
                    "Api".to_owned(),
                    "files".to_owned(),
                    "api/put.ts".to_owned()
                ),
            ],
            "binding {binding:?}"
        );
        assert!(warnings(&verdict, "probable-fact").is_empty());
    }
}

/// An import of a bound library that the compiler elides (its names used only as types) loads
/// nothing, as `import type` does: novu's shared services name mongoose's `Document` in an
/// interface only, and that is no probable access to MongoDB.
#[test]
fn an_elided_import_of_a_bound_library_is_no_access() {
    let spec = "\
node app : server
node mongo : mongodb { clients: \"mongoose\" }
component Generic { runs_on: app paths: \"generic/**\" }
invariant I {
  deny flow Generic -> mongo
}
";
    let dir = project(
        spec,
        &[(
            "generic/command.ts",
            "import { Document } from 'mongoose';\n\
             export interface Item extends Pick<Document, '_id'> {\n  name: string;\n}\n",
        )],
    );
    let verdict = check_all(dir.path());
    assert!(findings(&verdict).is_empty());
    assert!(warnings(&verdict, "probable-fact").is_empty());
}

/// Django's cache API reaches the cache the settings configure, through the backend's library:
/// netbox's `CACHES` names django-redis, which its spec binds to the cache node, and its core
/// app's `cache.get(…)` is an access of that node. A project whose cache lives in the process
/// has no such access.
#[test]
fn the_django_cache_api_reaches_the_configured_backend() {
    let spec = "\
node app : server
node cache : redis { clients: \"django_redis\" }
node tasks : queue { clients: \"django_rq\" }
component Site { runs_on: app paths: \"site/**\" }
component Core { runs_on: app paths: \"core/**\" }
invariant I {
  deny flow Core -> cache
  deny flow Core -> tasks
}
";
    let dir = project(
        spec,
        &[
            (
                "site/settings.py",
                "CACHES = {\n    'default': {\n        'BACKEND': 'django_redis.cache.RedisCache',\n        'LOCATION': 'redis://localhost:6379/1',\n    }\n}\n",
            ),
            ("site/__init__.py", ""),
            ("core/__init__.py", ""),
            (
                "core/views.py",
                "from django.core.cache import cache\n\n\ndef latest():\n    return cache.get('latest')\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    assert_eq!(
        findings(&verdict),
        [(
            "Core".to_owned(),
            "cache".to_owned(),
            "core/views.py".to_owned()
        )]
    );
}

/// A node whose clients are recognised only in files no component owns meets no fact either,
/// and the warning says so (JeecgBoot's MinIO and Aliyun OSS utilities sit in a shared folder the
/// spec's layers leave out): "no client of it was recognised" would send the user to bind a
/// library lintel knows.
#[test]
fn a_vacuous_rule_names_the_unowned_file_where_the_nodes_client_is_used() {
    let spec = "\
node browser : edge_desktop
node cache : redis
component Ui { runs_on: browser paths: \"web/**\" }
invariant I {
  deny flow Ui -> cache
}
";
    let dir = project(
        spec,
        &[
            ("web/app.py", "x = 1\n"),
            (
                "shared/store.py",
                "import redis\n\nclient = redis.Redis(host=\"cache\")\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    assert!(findings(&verdict).is_empty());
    let vacuous = warnings(&verdict, "vacuous-rule");
    let messages: Vec<&str> = vacuous.iter().map(|warning| message(warning)).collect();
    assert_eq!(
        messages,
        ["`deny flow Ui -> cache` cannot fail on this project: no fact targets node `cache` (category `redis`): its clients were recognised only in files no component owns (first `shared/store.py:3`)"]
    );
}

#[test]
fn a_rule_over_an_endpoint_no_fact_meets_is_vacuous() {
    let spec = "\
node browser : edge_desktop
node db : postgres
component Ui { runs_on: browser paths: \"web/**\" }
component Admin { runs_on: browser paths: \"admin/**\" }
invariant I {
  deny flow Ui -> db
  deny reach Admin -> Ui
}
";
    let dir = project(spec, &[("web/app.ts", "export const x = 1;\n")]);
    let verdict = check_all(dir.path());
    assert!(findings(&verdict).is_empty());
    let vacuous = warnings(&verdict, "vacuous-rule");
    let messages: Vec<&str> = vacuous.iter().map(|warning| message(warning)).collect();
    assert_eq!(
        messages,
        [
            "`deny flow Ui -> db` cannot fail on this project: no fact targets node `db` (category `postgres`): no client of it was recognised; if the code uses a library lintel does not know, bind it with `clients: \"<library>\"` on `db`",
            "`deny reach Admin -> Ui` cannot fail on this project: component `Admin` owns no file",
        ]
    );
    for entry in verdict["rule_coverage"].as_array().unwrap() {
        assert_eq!(entry["status"], "pass", "{entry}");
    }
    // With a narrowed scope too.
    let verdict = check(
        dir.path(),
        ScopeRequest::Files(vec![dir.path().join("web/app.ts")]),
        1,
    );
    assert_eq!(warnings(&verdict, "vacuous-rule").len(), 2);
}

#[test]
fn an_unresolved_target_is_reported_once_per_name() {
    let spec = "\
node app : server
component Api { runs_on: app paths: \"api/**\" }
";
    let redis = "import Redis from 'ioredis';\nexport const r = new Redis();\nexport const s = new Redis();\n";
    let dir = project(spec, &[("api/a.ts", redis), ("api/b.ts", redis)]);
    let verdict = check_all(dir.path());
    let unresolved = warnings(&verdict, "unresolved-target");
    assert_eq!(unresolved.len(), 1, "{unresolved:?}");
    assert_eq!(unresolved[0]["file"], "api/a.ts");
    assert_eq!(
        message(unresolved[0]),
        "`redis` is not a declared entity and no declared node or resource has a type in that category: no flow edge (4 facts, first in `api/a.ts`)"
    );
    // Under a narrowed scope, only the facts in scope count.
    let verdict = check(
        dir.path(),
        ScopeRequest::Files(vec![dir.path().join("api/b.ts")]),
        1,
    );
    let unresolved = warnings(&verdict, "unresolved-target");
    assert_eq!(unresolved.len(), 1);
    assert!(message(unresolved[0]).ends_with("(2 facts, first in `api/b.ts`)"));
}

#[test]
fn one_library_on_two_entities_stops_the_check() {
    let dir = project(
        "node a : postgres { clients: \"sequelize\" }\nnode b : mysql { clients: \"sequelize\" }\n",
        &[],
    );
    let mut options = engine::CheckOptions::new(dir.path());
    options.scope = ScopeRequest::All;
    let Err(error) = engine::run_check(&options, &engine::Z3Solver) else {
        panic!("the spec does not compile");
    };
    let text = format!("{error:?}");
    assert!(text.contains("duplicate-client-binding"), "{text}");
    assert!(
        text.contains("`sequelize` is already bound to `a`"),
        "{text}"
    );
}

#[test]
fn bindings_survive_the_compiled_artifact_and_a_duplicate_is_located() {
    let spec = "\
node browser : edge_desktop
node db : postgres { clients: \"sequelize\" }
node alerts : rest_api { urls: \"https://alertmanager:9093/**\", \"ALERTMANAGER_URL\" }
component Ui { runs_on: browser paths: \"web/**\" }
invariant I { deny flow Ui -> db }
";
    let dir = project(
        spec,
        &[(
            "web/db.ts",
            "import { Sequelize } from 'sequelize';\nexport const db = new Sequelize('postgres://x');\n",
        )],
    );
    let root = dir.path();
    let artifact = root.join("architecture.o");
    let (code, stdout) = run_cli(&[
        "compile",
        root.join("architecture.ag").to_str().unwrap(),
        "--out",
        artifact.to_str().unwrap(),
        "--json",
        "--project",
        root.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stdout}");
    let model = engine::load_spec(root, Some(&artifact)).unwrap().model;
    assert_eq!(model.node("db").unwrap().clients, ["sequelize"]);
    assert_eq!(
        model.node("alerts").unwrap().urls,
        ["https://alertmanager:9093/**", "ALERTMANAGER_URL"]
    );
    let mut options = engine::CheckOptions::new(root);
    options.scope = ScopeRequest::All;
    options.spec = Some(artifact);
    let run = engine::run_check(&options, &engine::Z3Solver).unwrap();
    assert_eq!(run.verdict.violations.len(), 1);

    std::fs::write(
        root.join("architecture.ag"),
        format!("{spec}node jobs : queue {{ clients: \"bullmq\" \"sequelize\" }}\n"),
    )
    .unwrap();
    let (code, stdout) = run_cli(&[
        "compile",
        root.join("architecture.ag").to_str().unwrap(),
        "--json",
        "--project",
        root.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{stdout}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let diagnostic = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|diagnostic| diagnostic["code"] == "duplicate-client-binding")
        .unwrap_or_else(|| panic!("{report}"));
    assert_eq!(
        diagnostic["message"],
        "`sequelize` is already bound to `db`"
    );
    assert_eq!(
        (&diagnostic["line"], &diagnostic["column"]),
        (&6.into(), &39.into())
    );
}

#[test]
fn a_spring_value_binds_a_request_and_the_client_it_is_made_with() {
    let spec = "\
node app : server
node payments : rest_api { urls: \"payments.url\" }
node github : rest_api
component Billing { runs_on: app paths: \"src/**\" }
invariant I {
  deny flow Billing -> payments
  deny flow Billing -> github
}
";
    let dir = project(
        spec,
        &[(
            "src/main/java/com/acme/PaymentsClient.java",
            "package com.acme;\n\nimport org.springframework.beans.factory.annotation.Value;\nimport org.springframework.web.client.RestTemplate;\n\npublic class PaymentsClient {\n    @Value(\"${payments.url}\")\n    private String paymentsUrl;\n\n    private final RestTemplate rest = new RestTemplate();\n\n    public String charge() {\n        return rest.postForObject(paymentsUrl + \"/charges\", null, String.class);\n    }\n}\n",
        )],
    );
    let verdict = check_all(dir.path());
    // The request goes to `payments`; the RestTemplate it is made with adds no edge to `github`.
    assert_eq!(
        findings(&verdict),
        [(
            "Billing".to_owned(),
            "payments".to_owned(),
            "src/main/java/com/acme/PaymentsClient.java".to_owned()
        )]
    );
    assert_eq!(warnings(&verdict, "vacuous-rule").len(), 1);
}

#[test]
fn a_url_whose_constants_name_the_host_is_bound_by_its_value() {
    // paperless-ngx's Angular services call `${environment.apiBaseUrl}statistics/`, the
    // environment file exporting `apiBaseUrl: 'http://localhost:8000/api/'`: `urls` globs bind
    // the URL the constants fill in (the file's own, or another file's), not only a URL written
    // out; a constant that makes the URL relative calls the code's own origin.
    let spec =
        "node app : server\nnode api : rest_api { urls: \"http://localhost:8000/api/**\" }\n\
                node partner : rest_api { urls: \"https://partner.example/**\" }\n\
                component Web { runs_on: app paths: \"web/**\" }\n\
                invariant L {\n  deny flow Web -> api\n  deny flow Web -> partner\n}\n";
    let dir = project(
        spec,
        &[
            (
                "web/environment.ts",
                "export const environment = { apiBaseUrl: 'http://localhost:8000/api/' };\nexport const SAME = '/same/';\n",
            ),
            (
                "web/statistics.service.ts",
                "import { HttpClient } from '@angular/common/http';\nimport { environment } from './environment';\n\nexport class StatisticsService {\n  constructor(private http: HttpClient) {}\n  load() {\n    return this.http.get(`${environment.apiBaseUrl}statistics/`);\n  }\n}\n",
            ),
            (
                "web/partner.ts",
                "const BASE = 'https://partner.example';\nexport const items = () => fetch(`${BASE}/api/items`);\n",
            ),
            (
                "web/same.ts",
                "import { SAME } from './environment';\nexport const mine = () => fetch(`${SAME}orders`);\n",
            ),
            // A constant of a file no component owns fills the URL too.
            (
                "common/partner.ts",
                "export const PARTNER_URL = 'https://partner.example/v2';\n",
            ),
            (
                "web/orders.ts",
                "import { PARTNER_URL } from '../common/partner';\nexport const orders = () => fetch(`${PARTNER_URL}/orders`);\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    let mut found = findings(&verdict);
    found.sort();
    assert_eq!(
        found,
        [
            (
                "Web".to_owned(),
                "api".to_owned(),
                "web/statistics.service.ts".to_owned()
            ),
            (
                "Web".to_owned(),
                "partner".to_owned(),
                "web/orders.ts".to_owned()
            ),
            (
                "Web".to_owned(),
                "partner".to_owned(),
                "web/partner.ts".to_owned()
            ),
        ]
    );
    assert!(
        warnings(&verdict, "unresolved-target").is_empty(),
        "{verdict}"
    );
    assert!(warnings(&verdict, "ambiguous-technology-target").is_empty());
}

#[test]
fn a_base_the_file_declares_empty_calls_its_own_origin() {
    // `const BASE = ''` and `axios.create({ baseURL: '' })`: the requests are relative once
    // the file's constants fill them, so neither they nor the clients they are made with flow
    // into the declared `rest_api`.
    let spec = "node app : server\nnode partner : rest_api\n\
                component Web { runs_on: app paths: \"web/**\" }\n\
                invariant L { deny flow Web -> partner }\n";
    let relative = project(
        spec,
        &[(
            "web/a.ts",
            "import axios from \"axios\";\nconst api = axios.create({ baseURL: \"\" });\nexport const load = () => api.get(\"/api/orders\");\nconst BASE = \"\";\nexport const items = () => fetch(`${BASE}/api/items`);\n",
        )],
    );
    assert_eq!(findings(&check_all(relative.path())), []);
    // A base the file declares with a host is no relative URL: that call is the partner's.
    let absolute = project(
        spec,
        &[(
            "web/a.ts",
            "const BASE = \"https://partner.example\";\nexport const items = () => fetch(`${BASE}/api/items`);\n",
        )],
    );
    assert_eq!(
        findings(&check_all(absolute.path())),
        [(
            "Web".to_owned(),
            "partner".to_owned(),
            "web/a.ts".to_owned()
        )]
    );
}

#[test]
fn a_url_the_page_builds_on_its_own_origin_calls_no_outside_api() {
    // lnbits's `fetch(this.url_for(url))`, whose helper returns `new URL(url,
    // window.location.origin)`, and the other ways a page spells its own origin: none flows
    // into the declared `rest_api`. An absolute URL stands alone, whatever the base.
    let spec = "node browser : edge_desktop\nnode outside : rest_api\n\
                component Web { runs_on: browser paths: \"web/**\" }\n\
                invariant L { deny flow Web -> outside }\n";
    let own = project(
        spec,
        &[(
            "web/utils.js",
            "window._utils = {\n  url_for(url) {\n    const _url = new URL(url, window.location.origin)\n    return _url.toString()\n  },\n  load(url) {\n    return fetch(this.url_for(url))\n  },\n}\nfunction urlFor(path) {\n  return new URL(path, location.href).href\n}\nexport const a = (path) => fetch(urlFor(path))\nexport const b = () => fetch(`${window.location.origin}/api/x`)\nexport const c = () => fetch(location.origin + '/api/y')\n",
        )],
    );
    assert_eq!(findings(&check_all(own.path())), []);
    let absolute = project(
        spec,
        &[(
            "web/utils.js",
            "export const a = () => fetch(new URL('https://partner.example/v1', window.location.origin))\n",
        )],
    );
    assert_eq!(
        findings(&check_all(absolute.path())),
        [(
            "Web".to_owned(),
            "outside".to_owned(),
            "web/utils.js".to_owned()
        )]
    );
}

/// `deny flow Api -> queue` and `deny flow Admin -> queue` on a project whose `queue` binds
/// `library`: `api_file` constructs, calls or injects something of it, `admin_file` only
/// imports it. The construction is a definite, blocking finding; the bare import only a
/// probable-fact warning.
fn check_bound_library(library: &str, files: &[(&str, &str)], api_file: &str, admin_file: &str) {
    let spec = format!(
        "\
node app : server
node queue : message_queue {{ clients: \"{library}\" }}
component Api {{ runs_on: app paths: \"api/**\" }}
component Admin {{ runs_on: app paths: \"admin/**\" }}
invariant I {{
  deny flow Api -> queue
  deny flow Admin -> queue
}}
"
    );
    let dir = project(&spec, files);
    let verdict = check_all(dir.path());
    assert_eq!(
        findings(&verdict),
        [("Api".to_owned(), "queue".to_owned(), api_file.to_owned())],
        "{library}"
    );
    let violation = &verdict["violations"][0];
    assert_eq!(violation["detected"]["confidence"], "definite", "{library}");
    assert_eq!(violation["blocking"], true, "{library}");
    assert_eq!(verdict["verdict"], "fail", "{library}");
    let probable = warnings(&verdict, "probable-fact");
    assert_eq!(probable.len(), 1, "{library}: {probable:?}");
    assert_eq!(probable[0]["file"], admin_file, "{library}");
    assert!(warnings(&verdict, "vacuous-rule").is_empty(), "{library}");
}

#[test]
fn a_go_call_of_a_bound_library_is_definite_and_its_bare_import_probable() {
    check_bound_library(
        "github.com/nats-io/nats.go",
        &[
            ("go.mod", "module example.com/shop\n\ngo 1.22\n"),
            (
                "api/publish.go",
                "package api\n\nimport \"github.com/nats-io/nats.go\"\n\nfunc Publish(url string) {\n\tnc, _ := nats.Connect(url)\n\tnc.Publish(\"orders\", nil)\n}\n",
            ),
            (
                "admin/holder.go",
                // A constant is no client (a struct field of `*nats.Conn` would be an injection).
                "package admin\n\nimport \"github.com/nats-io/nats.go\"\n\nconst Server = nats.DefaultURL\n",
            ),
        ],
        "api/publish.go",
        "admin/holder.go",
    );
}

#[test]
fn a_java_construction_of_a_bound_library_is_definite_and_its_bare_import_probable() {
    check_bound_library(
        "com.rabbitmq.client",
        &[
            (
                "api/src/main/java/com/shop/api/Publisher.java",
                "package com.shop.api;\n\nimport com.rabbitmq.client.ConnectionFactory;\n\npublic class Publisher {\n    public void connect() {\n        ConnectionFactory factory = new ConnectionFactory();\n    }\n}\n",
            ),
            (
                "admin/src/main/java/com/shop/admin/Holder.java",
                "package com.shop.admin;\n\nimport com.rabbitmq.client.AMQP;\n\npublic class Holder {\n    public int size() {\n        AMQP.BasicProperties properties = null;\n        return 0;\n    }\n}\n",
            ),
        ],
        "api/src/main/java/com/shop/api/Publisher.java",
        "admin/src/main/java/com/shop/admin/Holder.java",
    );
}

#[test]
fn a_csharp_construction_of_a_bound_library_is_definite_and_its_bare_using_probable() {
    check_bound_library(
        "RabbitMQ.Client",
        &[
            (
                "api/Cache.cs",
                "using System;\nusing RabbitMQ.Client;\n\nnamespace Shop.Api;\n\npublic class Cache\n{\n    public Cache()\n    {\n        var factory = new ConnectionFactory();\n    }\n}\n",
            ),
            (
                "admin/Holder.cs",
                "using RabbitMQ.Client;\nusing Newtonsoft.Json;\n\nnamespace Shop.Admin;\n\npublic class Holder\n{\n    public Holder(JsonSerializer serializer) { }\n}\n",
            ),
        ],
        "api/Cache.cs",
        "admin/Holder.cs",
    );
}

#[test]
fn kotlin_rust_and_swift_uses_of_bound_libraries_are_definite_and_their_bare_imports_probable() {
    check_bound_library(
        "io.nats",
        &[
            (
                "api/src/main/kotlin/com/shop/api/Publisher.kt",
                "package com.shop.api\n\nimport io.nats.client.Nats\n\nfun publish() {\n    val connection = Nats.connect(\"nats://localhost:4222\")\n}\n",
            ),
            (
                "admin/src/main/kotlin/com/shop/admin/Holder.kt",
                "package com.shop.admin\n\nimport io.nats.client.Connection\n\nfun size(): Int {\n    val connection: Connection? = null\n    return 0\n}\n",
            ),
        ],
        "api/src/main/kotlin/com/shop/api/Publisher.kt",
        "admin/src/main/kotlin/com/shop/admin/Holder.kt",
    );
    check_bound_library(
        "lapin",
        &[
            (
                "api/src/lib.rs",
                "use lapin::Connection;\n\npub async fn connect(url: &str) {\n    let connection = Connection::connect(url, Default::default()).await;\n}\n",
            ),
            (
                "admin/src/lib.rs",
                // A type alias names the type only (a field of it would be an injection).
                "use lapin::BasicProperties;\n\npub type Properties = BasicProperties;\n",
            ),
        ],
        "api/src/lib.rs",
        "admin/src/lib.rs",
    );
    check_bound_library(
        "NATS",
        &[
            (
                "api/Publisher.swift",
                "import Foundation\nimport NATS\n\nfinal class Publisher {\n    func connect() {\n        let options = NatsClientOptions()\n    }\n}\n",
            ),
            (
                "admin/Holder.swift",
                "import NATS\nimport Vapor\n\nstruct Holder {\n    func make() {\n        let connection = Connection()\n    }\n}\n",
            ),
        ],
        "api/Publisher.swift",
        "admin/Holder.swift",
    );
}

#[test]
fn a_go_module_listed_with_its_major_version_binds_the_catalogue_client() {
    // go-redis is in the built-in catalogue, named without its major version; the spec lists
    // the module path a Go user writes, `…/v9`, which must still bind it.
    let spec = "node app : server\n\
                node sessions : redis { clients: \"github.com/redis/go-redis/v9\" }\n\
                node cache : redis\n\
                component Api { runs_on: app paths: \"api/**\" }\n\
                invariant L { deny flow Api -> cache\n deny flow Api -> sessions }\n";
    let dir = project(
        spec,
        &[
            ("go.mod", "module example.com/shop\n\ngo 1.22\n\nrequire github.com/redis/go-redis/v9 v9.5.1\n"),
            (
                "api/store.go",
                "package api\n\nimport \"github.com/redis/go-redis/v9\"\n\nfunc Open() *redis.Client {\n\treturn redis.NewClient(&redis.Options{Addr: \"localhost:6379\"})\n}\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    let targets: Vec<String> = findings(&verdict)
        .into_iter()
        .map(|(_, to, _)| to)
        .collect();
    assert!(!targets.is_empty(), "{verdict}");
    assert!(targets.iter().all(|to| to == "sessions"), "{targets:?}");
}

/// A Go package imported without an alias is used by the name Go's tools guess from its path,
/// up to the first character no identifier holds: authelia's storage opens its database with
/// `sqlx.Open(…)` from `github.com/rpadovani/sqlx-v2`, a definite use of the bound library (it
/// was read as `sqlxv2`, leaving only the import's probable fact).
#[test]
fn a_go_package_with_a_dash_in_its_path_is_used_by_its_guessed_name() {
    let spec = "node app : server\n\
                node db : relational_db { clients: \"github.com/rpadovani/sqlx-v2\" }\n\
                component Storage { runs_on: app paths: \"storage/**\" }\n\
                invariant L { deny flow Storage -> db }\n";
    let dir = project(
        spec,
        &[
            ("go.mod", "module example.com/auth\n\ngo 1.22\n"),
            (
                "storage/sql.go",
                "package storage\n\nimport \"github.com/rpadovani/sqlx-v2\"\n\nfunc Open(driver, dsn string) (*sqlx.DB, error) {\n\treturn sqlx.Open(driver, dsn)\n}\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    let violations = verdict["violations"].as_array().unwrap();
    assert_eq!(violations.len(), 1, "{verdict}");
    assert_eq!(
        violations[0]["detected"]["confidence"], "definite",
        "{verdict}"
    );
    assert_eq!(violations[0]["detected"]["line"], 6, "{verdict}");
}

/// A bound `database/sql` is that package only, as its catalogue entry says: authelia's model
/// types implement `driver.Valuer` from `database/sql/driver`, which reads no database, while its
/// storage opens one with `sql.Open`.
#[test]
fn a_bound_database_sql_is_not_its_driver_package() {
    let spec = "node app : server\n\
                node db : relational_db { clients: \"database/sql\" }\n\
                component Model { runs_on: app paths: \"model/**\" }\n\
                component Storage { runs_on: app paths: \"storage/**\" }\n\
                invariant L { deny flow Model -> db\n deny flow Storage -> db }\n";
    let dir = project(
        spec,
        &[
            ("go.mod", "module example.com/auth\n\ngo 1.22\n"),
            (
                "model/ip.go",
                "package model\n\nimport \"database/sql/driver\"\n\ntype IP string\n\nfunc (ip IP) Value() (driver.Value, error) {\n\treturn string(ip), nil\n}\n",
            ),
            (
                "storage/sql.go",
                "package storage\n\nimport \"database/sql\"\n\nfunc Open(dsn string) (*sql.DB, error) {\n\treturn sql.Open(\"postgres\", dsn)\n}\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    assert_eq!(
        findings(&verdict),
        [(
            "Storage".to_owned(),
            "db".to_owned(),
            "storage/sql.go".to_owned()
        )]
    );
    assert!(warnings(&verdict, "probable-fact").is_empty(), "{verdict}");
}

/// A request whose URL tells nothing of where it goes (a wrapper's parameter, a constant computed
/// at run time, `${base}/${id}`) is at most a probable use of the one outside API a spec
/// declares: authelia's portal calls its own API so, and each call had become a definite use
/// of Duo. A request to a literal outside host still is a definite one.
#[test]
fn a_request_whose_url_says_nothing_is_a_probable_use_of_the_one_api() {
    let spec = "\
node app : server
node duo : rest_api
component Web { runs_on: app paths: \"web/**\" }
invariant I {
  deny flow Web -> duo
}
";
    let dir = project(
        spec,
        &[
            (
                "web/client.ts",
                "import axios from 'axios';\n\
                 export async function get(path: string) {\n  return axios.get(path);\n}\n\
                 export const remove = (base: string, id: string) => axios.delete(`${base}/${id}`);\n",
            ),
            (
                "web/api.ts",
                "import { settings } from './base';\nexport const ConsentPath = settings.consentUrl;\n",
            ),
            ("web/base.ts", "export const settings = (window as any).settings;\n"),
            (
                "web/consent.ts",
                "import axios from 'axios';\nimport { ConsentPath } from './api';\n\
                 export const consent = () => axios.put(ConsentPath, {});\n",
            ),
            (
                "web/preauth.ts",
                "export const preauth = () => fetch('https://api.duosecurity.com/auth/v2/preauth', { method: 'POST' });\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    assert_eq!(
        findings(&verdict),
        [(
            "Web".to_owned(),
            "duo".to_owned(),
            "web/preauth.ts".to_owned()
        )]
    );
    let mut probable: Vec<&str> = warnings(&verdict, "probable-fact")
        .into_iter()
        .map(|warning| warning["file"].as_str().unwrap())
        .collect();
    probable.sort_unstable();
    probable.dedup();
    assert_eq!(probable, ["web/client.ts", "web/consent.ts"], "{verdict}");
}

/// A URL constant another file declares as a path on a base computed at run time
/// (`basePath + '/api/state'`, `` `${basePath}/api/consent` ``) gives the request its path, and
/// a route of the project that serves that method and path makes it a call of the project's own
/// server (authelia's portal and its fasthttp API). A method no route serves may be served
/// through a route lintel cannot read: the request is at most a probable use of the one
/// outside API.
#[test]
fn a_path_constant_on_a_run_time_base_is_the_projects_own_route() {
    let spec = "\
node app : server
node duo : rest_api
component Web { runs_on: app paths: \"web/**\" }
component Server { runs_on: app paths: \"server/**\" }
invariant I {
  deny flow Web -> duo
}
";
    let dir = project(
        spec,
        &[
            ("go.mod", "module example.com/auth\n\ngo 1.22\n"),
            (
                "server/routes.go",
                "package server\n\nimport \"github.com/fasthttp/router\"\n\n\
                 func Routes(state, consent interface{}) {\n\tr := router.New()\n\
                 \tr.GET(\"/api/state\", state)\n\tr.PUT(\"/api/consent\", consent)\n}\n",
            ),
            (
                "web/base.ts",
                "export const getBasePath = () => (window as any).basePath;\n",
            ),
            (
                "web/api.ts",
                "import { getBasePath } from './base';\nconst basePath = getBasePath();\n\
                 export const StatePath = basePath + '/api/state';\n\
                 export const ConsentPath = `${basePath}/api/consent`;\n",
            ),
            (
                "web/state.ts",
                "import axios from 'axios';\nimport { StatePath, ConsentPath } from './api';\n\
                 export const state = () => axios.get(StatePath);\n\
                 export const consent = () => axios.put(ConsentPath, {});\n\
                 export const other = () => axios.post(ConsentPath, {});\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    let found: Vec<(String, u64)> = verdict["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|violation| {
            (
                violation["detected"]["file"].as_str().unwrap().to_owned(),
                violation["detected"]["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert!(found.is_empty(), "{verdict}");
    let probable: Vec<(&str, u64)> = warnings(&verdict, "probable-fact")
        .into_iter()
        .map(|warning| {
            (
                warning["file"].as_str().unwrap(),
                warning["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(probable, [("web/state.ts", 5)], "{verdict}");
}

/// Catalogue libraries reach the store they really use: Sequelize by its URL, BullMQ the Redis it
/// lives in, Celery the broker its URL names, boto3 the service it is given; a library bound
/// with `clients` goes to its entity, whatever the catalogue's category.
#[test]
fn catalogue_libraries_reach_the_store_they_use_and_a_binding_wins() {
    let spec = "\
node app : server
node db : postgres
node cache : redis
node queue : message_queue
node files : object_store
node jobs : queue { clients: \"bee-queue\" }
component Web { runs_on: app paths: \"web/**\" }
component Worker { runs_on: app paths: \"worker/**\" }
invariant I {
  deny flow Web -> db
  deny flow Web -> cache
  deny flow Web -> queue
  deny flow Web -> jobs
  deny flow Worker -> queue
  deny flow Worker -> files
  deny flow Worker -> cache
}
";
    let dir = project(
        spec,
        &[
            (
                "web/db.ts",
                "import { Sequelize } from 'sequelize';\nexport const db = new Sequelize('postgres://app@db/shop');\n",
            ),
            (
                "web/jobs.ts",
                "import { Queue } from 'bullmq';\nexport const emails = new Queue('emails');\n",
            ),
            (
                "web/bee.ts",
                "import BeeQueue from 'bee-queue';\nexport const bee = new BeeQueue('bee');\n",
            ),
            (
                "worker/tasks.py",
                "from celery import Celery\n\napp = Celery('worker', broker='amqp://rabbit')\n",
            ),
            (
                "worker/store.py",
                "import boto3\n\ns3 = boto3.client('s3')\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    let mut found = findings(&verdict);
    found.sort();
    let expected = [
        ("Web", "cache", "web/jobs.ts"),
        ("Web", "db", "web/db.ts"),
        ("Web", "jobs", "web/bee.ts"),
        ("Worker", "files", "worker/store.py"),
        ("Worker", "queue", "worker/tasks.py"),
    ]
    .map(|(from, to, file)| (from.to_owned(), to.to_owned(), file.to_owned()));
    assert_eq!(found, expected);
}

/// A C# `HttpClient` passed in as a parameter (a primary constructor's, a static method's) is an
/// access like an injected field, with the targets of the binding rules: two unbound REST APIs
/// are each a probable target, and a single one is a definite target. A test that builds its
/// clients on mocked handlers or mocks the factory adds no fact.
#[test]
fn a_csharp_http_client_parameter_is_a_probable_access_to_each_api_and_a_mocked_one_is_none() {
    let spec = "\
node app : server
node payments : rest_api
node alerts : rest_api
component Billing { runs_on: app paths: \"billing/**\" }
component BillingTests { runs_on: app paths: \"tests/**\" }
invariant I { deny flow Billing -> payments }
";
    let dir = project(
        spec,
        &[
            (
                "billing/PaymentsClient.cs",
                "namespace Shop.Billing;\n\npublic class PaymentsClient(HttpClient http)\n{\n    public static void Authorize(HttpClient client, string token)\n    {\n        client.DefaultRequestHeaders.Add(\"Authorization\", token);\n    }\n}\n",
            ),
            (
                "tests/PaymentsClientTests.cs",
                "using NSubstitute;\nusing RichardSzalay.MockHttp;\n\nnamespace Shop.Tests;\n\npublic class PaymentsClientTests\n{\n    private readonly IHttpClientFactory _factory = Substitute.For<IHttpClientFactory>();\n    private readonly MockHttpMessageHandler _handler = new();\n    private readonly HttpClient _client;\n\n    public PaymentsClientTests()\n    {\n        _client = _handler.ToHttpClient();\n        var other = new HttpClient(new MockHttpMessageHandler());\n    }\n}\n",
            ),
        ],
    );
    let verdict = check_all(dir.path());
    assert!(
        findings(&verdict).is_empty(),
        "a probable edge does not block"
    );
    let ambiguous = warnings(&verdict, "ambiguous-technology-target");
    assert_eq!(ambiguous.len(), 1, "{ambiguous:?}");
    assert_eq!(ambiguous[0]["file"], "billing/PaymentsClient.cs");
    assert!(
        message(ambiguous[0]).starts_with(
            "`external_api` may be any of `alerts`, `payments`: each of its 2 facts is a probable access to every one"
        ),
        "{}",
        message(ambiguous[0])
    );
    // With one REST API left, it is the single candidate: both parameters are definite
    // accesses to it.
    let single = spec.replace("node alerts : rest_api\n", "");
    std::fs::write(dir.path().join("architecture.ag"), single).unwrap();
    let verdict = check_all(dir.path());
    let mut found = findings(&verdict);
    found.sort();
    let expected = (
        "Billing".to_owned(),
        "payments".to_owned(),
        "billing/PaymentsClient.cs".to_owned(),
    );
    assert_eq!(found, [expected]);
    assert!(warnings(&verdict, "probable-fact").is_empty());
    assert!(warnings(&verdict, "ambiguous-technology-target").is_empty());
}
