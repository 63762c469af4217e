//! A binding of a catalogue entry names that entry's store only: `clients: "django"` binds
//! Django's ORM, while Django's cache backends and cache API, entries of their own inside the
//! distribution (`django.core.cache`, `django.core.cache.cache`), keep the store the settings
//! configure. DefectDojo bound `django` to its PostgreSQL node, and its Redis cache setting and
//! `cache.get`/`cache.set` calls had become accesses of the database.

use super::{detections, json_run, lintel, write_files};

const SPEC: &str = "node app : server\n\
node db : postgres { clients: \"django\" }\n\
node cache : redis\n\
component Models { runs_on: app paths: \"shop/models.py\" }\n\
component Views { runs_on: app paths: \"shop/views.py\" }\n\
component Settings { runs_on: app paths: \"shop/settings.py\" }\n\
invariant Layers {\n  deny flow Views -> db\n  deny flow Settings -> db\n  deny flow Views -> cache\n  deny flow Models -> db\n}\n";

const SETTINGS: &str = "CACHES = {\n    \"default\": {\n        \"BACKEND\": \"django.core.cache.backends.redis.RedisCache\",\n        \"LOCATION\": \"redis://cache:6379/1\",\n    },\n}\n";

const VIEWS: &str = "from django.core.cache import cache\n\n\ndef remember(key, value):\n    cache.set(key, value)\n";

const MODELS: &str = "from django.db import models\n\n\nclass Order(models.Model):\n    total = models.IntegerField()\n";

#[test]
fn a_bound_django_leaves_its_cache_to_the_cache_the_settings_name() {
    let dir = tempfile::tempdir().unwrap();
    write_files(
        dir.path(),
        &[
            ("architecture.ag", SPEC),
            ("shop/__init__.py", ""),
            ("shop/settings.py", SETTINGS),
            ("shop/views.py", VIEWS),
            ("shop/models.py", MODELS),
        ],
    );
    let (code, verdict) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--no-cache", "--project"])
            .arg(dir.path()),
    );
    assert_eq!(code, 1, "{verdict:#}");
    assert_eq!(
        detections(&verdict),
        [
            ("deny flow Views -> cache", "shop/views.py", 5, "definite"),
            ("deny flow Models -> db", "shop/models.py", 4, "definite"),
        ]
    );
}
