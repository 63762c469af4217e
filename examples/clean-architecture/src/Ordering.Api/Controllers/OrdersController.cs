using Microsoft.AspNetCore.Mvc;
using Ordering.Application.Orders;

namespace Ordering.Api.Controllers;

[ApiController]
[Route("api/orders")]
public sealed class OrdersController : ControllerBase
{
    private readonly PlaceOrder _placeOrder;
    private readonly CancelOrder _cancelOrder;
    private readonly ExportOrders _exportOrders;

    public OrdersController(PlaceOrder placeOrder, CancelOrder cancelOrder, ExportOrders exportOrders)
    {
        _placeOrder = placeOrder;
        _cancelOrder = cancelOrder;
        _exportOrders = exportOrders;
    }

    [HttpPost]
    public async Task<ActionResult<Guid>> Place(PlaceOrderCommand command, CancellationToken cancellationToken) =>
        await _placeOrder.HandleAsync(command, cancellationToken);

    [HttpPost("{id}/cancel")]
    public async Task<IActionResult> Cancel(Guid id, CancellationToken cancellationToken) =>
        await _cancelOrder.HandleAsync(id, cancellationToken) ? NoContent() : NotFound();

    [HttpGet("export/{customerId}")]
    public async Task<ContentResult> Export(string customerId, CancellationToken cancellationToken) =>
        Content(await _exportOrders.HandleAsync(customerId, cancellationToken), "text/csv");
}
