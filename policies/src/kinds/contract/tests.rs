use crate::model::EndpointShape;
use crate::test_support::*;

#[test]
fn passing_contract_with_every_endpoint_form() {
    let model = assert_clean(
        "contract OrdersApi {\n  GET \"/api/orders\" -> Order[]\n  POST \"/api/orders/{id}\"\n  query orders(first: Int, after: Optional<String>) -> [Order]\n  rpc Get(Req) -> Resp\n  publishes: \"orders\"\n}",
    );
    let contract = model.contract("OrdersApi").unwrap();
    assert_eq!(contract.endpoints.len(), 5);
    let second = contract.endpoints.get(1).unwrap();
    assert_eq!(second.location.line, 3);
    let EndpointShape::Http {
        normalized_path, ..
    } = &second.shape
    else {
        panic!()
    };
    assert_eq!(normalized_path, "/api/orders/{}");
    let EndpointShape::Graphql {
        arguments, returns, ..
    } = &contract.endpoints.get(2).unwrap().shape
    else {
        panic!()
    };
    assert_eq!(arguments.get(1).unwrap().type_text, "Optional<String>");
    assert_eq!(returns.as_deref(), Some("[Order]"));
}

#[test]
fn invalid_route_is_a_warning() {
    let diagnostic = assert_diagnostic("contract C { GET \"api/x\" }", "invalid-route", 1, 18);
    assert_eq!(diagnostic.message, "route `api/x` should start with `/`");
}

#[test]
fn duplicate_endpoint_is_a_warning() {
    let diagnostic = assert_diagnostic(
        "contract C { GET \"/a/{id}\"\n GET \"/a/:key/\" }",
        "duplicate-endpoint",
        2,
        2,
    );
    assert_eq!(diagnostic.message, "`GET /a/{}` is declared twice in `C`");
}
