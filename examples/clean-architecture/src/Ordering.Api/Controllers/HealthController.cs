using Microsoft.AspNetCore.Mvc;
using Npgsql;

namespace Ordering.Api.Controllers;

[ApiController]
[Route("health")]
public sealed class HealthController : ControllerBase
{
    private readonly IConfiguration _configuration;

    public HealthController(IConfiguration configuration)
    {
        _configuration = configuration;
    }

    // A quick readiness probe: opens its own connection to the orders database.
    [HttpGet("ready")]
    public async Task<IActionResult> Ready(CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(_configuration.GetConnectionString("Orders"));
        await connection.OpenAsync(cancellationToken);
        return Ok();
    }
}
