//! The walk finds exactly what the C# query files describe: every C# fixture (and, with
//! `LINTEL_CSHARP_WALK_CORPUS=<dir>`, every `.cs` file under a directory) is matched both ways
//! and compared (`crate::walk::query_parity`).

use crate::language::Language;
use crate::walk::query_parity::{compare, compare_fixtures_and_corpus};

compare_fixtures_and_corpus!(Language::CSharp, "LINTEL_CSHARP_WALK_CORPUS", 5, 50);

#[test]
fn registrations_routes_roles_and_calls_keep_the_query_order() {
    let source = r#"
using Microsoft.AspNetCore.Mvc;
using static System.Math;
global using Db = Acme.Data;
namespace Acme.Api;
[ApiController, Route("api/[controller]")]
[Authorize(Roles = Roles.Admin)]
public class OrdersController : ControllerBase, IOrders {
    private readonly HttpClient _http = new HttpClient();
    public IDistributedCache Cache { get; set; }
    public OrdersController(AppDbContext db, [FromServices] ILogger<X> log) { this.db = db; }
    [HttpGet("{id}")] [HttpPost]
    public async Task<Order> Get(int id) {
        if (User.IsInRole("Admin")) { }
        var o = await _http.GetFromJsonAsync<Order>("/x");
        await _http.PostAsJsonAsync("/y", o).ConfigureAwait(false);
        services.AddScoped<IOrders, Orders>().AddDbContext<AppDb>(o => o.UseNpgsql(c));
        services.TryAddSingleton(typeof(IClock), typeof(Clock));
        var s = provider.GetRequiredService<IOrders>();
        app.MapGet("/orders", () => 1).RequireAuthorization();
        app.MapGroup("/g").Map("/h", h);
        x.Y = Z.W; a.b += 1;
        return F(G(1));
    }
}
"#;
    let hits = compare(Language::CSharp, super::hits, "inline", source)
        .unwrap_or_else(|failure| panic!("{failure}"));
    assert!(hits > 40, "{hits}");
}

#[test]
fn broken_source_matches_the_query_too() {
    for source in [
        "using A.\nclass B : { void F( { x.GetAsync(\n",
        "[HttpGet(\nclass C { C(I i { services.AddScoped<\n",
        "class D { E e = new ; void F() { this.a = ; } }\n",
    ] {
        compare(Language::CSharp, super::hits, source, source)
            .unwrap_or_else(|failure| panic!("{failure}"));
    }
}
