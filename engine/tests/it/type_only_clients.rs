//! An import made for type checkers only (TypeScript's `import type`, Python's `if
//! TYPE_CHECKING:`) loads nothing at run time: a client library imported that way is no access
//! of its store, not even a probable one. paperless-ngx's `documents/plugins/helpers.py` imports
//! `channels_redis.pubsub.RedisPubSubChannelLayer` under `TYPE_CHECKING` for an annotation; it
//! made a probable Redis access of the documents app.

use super::{check_all, write_files};

#[test]
fn a_client_imported_for_type_checkers_only_is_no_access() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            (
                "architecture.ag",
                "node app : server\nnode bus : queue { clients: \"mylib\", \"buslib\" }\nnode cache : redis\n\
                 component Web { runs_on: app paths: \"web/**\" }\n\
                 invariant L {\n  deny flow Web -> bus\n  deny flow Web -> cache\n}\n",
            ),
            (
                "web/a.ts",
                "import type { Message } from 'mylib';\n\nexport const size = (message: Message): number => 1;\n",
            ),
            (
                "web/b.py",
                "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from buslib import Message\n\n\ndef size(message):\n    return 1\n",
            ),
            (
                "web/c.py",
                "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from channels_redis.pubsub import RedisPubSubChannelLayer\n\n\nclass Progress:\n    def __init__(self):\n        self.channel = None\n",
            ),
        ],
    );
    let (code, verdict) = check_all(project.path());
    assert_eq!(code, 0, "{verdict}");
    let warnings: Vec<&str> = verdict["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|warning| warning["code"].as_str())
        .filter(|code| *code != "vacuous-rule")
        .collect();
    assert_eq!(warnings, Vec::<&str>::new(), "{verdict}");
    assert_eq!(verdict["violations"], serde_json::json!([]));
}
