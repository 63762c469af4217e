//! A JPA entity that Spring Data audits (`@EntityListeners(AuditingEntityListener.class)`) names
//! Spring Data JPA's `domain` package but accesses no store: a domain rule against the database
//! has nothing to say about it, not even a probable warning, while the repository that extends
//! `JpaRepository` is a definite access, through the real binary.

use super::{json_run, lintel, write_files};

#[test]
fn an_audited_entity_is_no_database_access_and_its_repository_is() {
    let project = tempfile::tempdir().unwrap();
    write_files(
        project.path(),
        &[
            (
                "architecture.ag",
                "node app : server\n\
                 node db : relational_db\n\
                 component Domain { runs_on: app paths: \"src/main/java/com/shop/domain/**\" }\n\
                 component Repository { runs_on: app paths: \"src/main/java/com/shop/repository/**\" }\n\
                 invariant Layers { deny flow Domain -> db  deny flow Repository -> db }\n",
            ),
            (
                "src/main/java/com/shop/domain/Order.java",
                "package com.shop.domain;\n\n\
                 import jakarta.persistence.Entity;\n\
                 import jakarta.persistence.EntityListeners;\n\
                 import jakarta.persistence.Id;\n\
                 import org.springframework.data.jpa.domain.support.AuditingEntityListener;\n\n\
                 @Entity\n\
                 @EntityListeners(AuditingEntityListener.class)\n\
                 public class Order {\n    @Id\n    private Long id;\n}\n",
            ),
            (
                "src/main/java/com/shop/repository/OrderRepository.java",
                "package com.shop.repository;\n\n\
                 import com.shop.domain.Order;\n\
                 import org.springframework.data.jpa.repository.JpaRepository;\n\n\
                 public interface OrderRepository extends JpaRepository<Order, Long> {}\n",
            ),
        ],
    );
    let (code, verdict) = json_run(
        lintel()
            .args(["check", "--all", "--json", "--no-cache", "--project"])
            .arg(project.path()),
    );
    assert_eq!(code, 1, "{verdict:#}");
    let found = crate::rules_and_files(&verdict);
    assert_eq!(
        found,
        [(
            "deny flow Repository -> db",
            "src/main/java/com/shop/repository/OrderRepository.java"
        )]
    );
    assert_eq!(
        verdict["warnings"].as_array().unwrap().len(),
        0,
        "{verdict:#}"
    );
}
