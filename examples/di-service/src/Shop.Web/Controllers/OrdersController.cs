using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;
using Shop.Application;
using Shop.Data;

namespace Shop.Web.Controllers;

[ApiController]
[Route("api/orders")]
public class OrdersController : ControllerBase
{
    private readonly IOrderService _orders;

    // An application service: its implementation, OrderService, lives in Application.
    public OrdersController(IOrderService orders)
    {
        _orders = orders;
    }

    [HttpGet("{id}")]
    public async Task<ActionResult<Order>> Get(Guid id)
    {
        var order = await _orders.GetAsync(id);
        return order is null ? NotFound() : order;
    }

    [HttpPut("{id}")]
    [Authorize(Roles = "Admin,Clerk")]
    public async Task<ActionResult<Order>> Update(Guid id, Order changes)
    {
        var order = await _orders.UpdateAsync(id, changes);
        return order is null ? NotFound() : order;
    }

    [HttpDelete("{id}")]
    [Authorize(Roles = "Admin")]
    public async Task<ActionResult<Order>> Delete(Guid id)
    {
        var order = await _orders.DeleteAsync(id);
        return order is null ? NotFound() : order;
    }
}
