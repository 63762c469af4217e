//! A Java or Kotlin nested type written through its outer class (`Subscription.Subscriber`) is that nested
//! class, not a top-level class of the same simple name that another module declares in the
//! same package: halo's `api` module names `Subscription.Subscriber`, and its `application`
//! module declares a `run.halo.app.notification.Subscriber` of its own, which `api` cannot see.
//! A plain `Subscriber` of the package is still a same-package use, through the real binary.

use super::{check_all, write_files};

const SPEC: &str = "node app : server\n\
                    component Api { runs_on: app paths: \"api/**\" }\n\
                    component Application { runs_on: app paths: \"application/**\" }\n\
                    invariant Modules { deny reach Api -> Application }\n";

const SUBSCRIPTION: &str = "package run.app.notification;\n\
\n\
public class Subscription {\n\
    public static class Subscriber {\n\
        private String name;\n\
    }\n\
}\n";

const CENTER: &str = "package run.app.notification;\n\
\n\
public interface NotificationCenter {\n\
    void subscribe(Subscription.Subscriber subscriber);\n\
}\n";

const SUBSCRIBER: &str = "package run.app.notification;\n\
\n\
public class Subscriber {\n\
    private String email;\n\
}\n";

const PLAIN: &str = "package run.app.notification;\n\
\n\
public interface Mailer {\n\
    void send(Subscriber subscriber);\n\
}\n";

fn check(files: &[(&str, &str)]) -> (i32, serde_json::Value) {
    let project = tempfile::tempdir().unwrap();
    write_files(project.path(), files);
    check_all(project.path())
}

#[test]
fn a_nested_type_named_through_its_outer_class_is_no_use_of_a_top_level_namesake() {
    let files = [
        ("architecture.ag", SPEC),
        (
            "api/src/main/java/run/app/notification/Subscription.java",
            SUBSCRIPTION,
        ),
        (
            "api/src/main/java/run/app/notification/NotificationCenter.java",
            CENTER,
        ),
        (
            "application/src/main/java/run/app/notification/Subscriber.java",
            SUBSCRIBER,
        ),
    ];
    let (code, verdict) = check(&files);
    assert_eq!(code, 0, "{verdict:#}");
    assert_eq!(crate::detections(&verdict), []);
    // The simple name alone is the package's class: a same-package use.
    let mut with_plain = files.to_vec();
    with_plain.push(("api/src/main/java/run/app/notification/Mailer.java", PLAIN));
    let (code, verdict) = check(&with_plain);
    assert_eq!(code, 1, "{verdict:#}");
    assert_eq!(
        crate::detections(&verdict),
        [(
            "deny reach Api -> Application",
            "api/src/main/java/run/app/notification/Mailer.java",
            4,
            "definite"
        )]
    );
}

#[test]
fn a_kotlin_nested_type_named_through_its_outer_class_is_no_use_of_a_top_level_namesake() {
    let files = [
        ("architecture.ag", SPEC),
        (
            "api/src/main/kotlin/run/app/notification/Subscription.kt",
            "package run.app.notification\n\nclass Subscription {\n    class Subscriber(val name: String)\n}\n",
        ),
        (
            "api/src/main/kotlin/run/app/notification/NotificationCenter.kt",
            "package run.app.notification\n\ninterface NotificationCenter {\n    fun subscribe(subscriber: Subscription.Subscriber)\n}\n",
        ),
        (
            "application/src/main/kotlin/run/app/notification/Subscriber.kt",
            "package run.app.notification\n\nclass Subscriber(val email: String)\n",
        ),
    ];
    let (code, verdict) = check(&files);
    assert_eq!(code, 0, "{verdict:#}");
    let mut with_plain = files.to_vec();
    with_plain.push((
        "api/src/main/kotlin/run/app/notification/Mailer.kt",
        "package run.app.notification\n\ninterface Mailer {\n    fun send(subscriber: Subscriber)\n}\n",
    ));
    let (code, verdict) = check(&with_plain);
    assert_eq!(code, 1, "{verdict:#}");
    assert_eq!(
        crate::detections(&verdict),
        [(
            "deny reach Api -> Application",
            "api/src/main/kotlin/run/app/notification/Mailer.kt",
            4,
            "definite"
        )]
    );
}
