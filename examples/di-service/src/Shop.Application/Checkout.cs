using Microsoft.Extensions.DependencyInjection;
using Shop.Data;

namespace Shop.Application;

public interface IPaymentGateway
{
    Task<bool> ChargeAsync(Guid orderId, decimal amount);
}

public sealed class PaymentGateway : IPaymentGateway
{
    public Task<bool> ChargeAsync(Guid orderId, decimal amount) => Task.FromResult(amount > 0);
}

public interface ICheckoutService
{
    Task<bool> PlaceAsync(Order order);
}

/// Pulls its payment gateway out of the container at run time instead of declaring it.
public class CheckoutService : ICheckoutService
{
    private readonly IServiceProvider _services;

    public CheckoutService(IServiceProvider services)
    {
        _services = services;
    }

    public async Task<bool> PlaceAsync(Order order)
    {
        var gateway = _services.GetRequiredService<IPaymentGateway>();
        if (!await gateway.ChargeAsync(order.Id, order.Total))
        {
            return false;
        }
        order.Status = OrderStatus.Placed;
        return true;
    }
}
