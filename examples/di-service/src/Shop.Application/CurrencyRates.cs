namespace Shop.Application;

public interface ICurrencyRates
{
    decimal ToEuro(decimal amount, string currency);
}

/// Rates refreshed once an hour; a singleton that only depends on another singleton.
public sealed class CurrencyRates : ICurrencyRates
{
    private readonly IClock _clock;
    private DateTimeOffset _loadedAt;

    public CurrencyRates(IClock clock)
    {
        _clock = clock;
        _loadedAt = clock.Now;
    }

    public decimal ToEuro(decimal amount, string currency)
    {
        if (_clock.Now - _loadedAt > TimeSpan.FromHours(1))
        {
            _loadedAt = _clock.Now;
        }
        return currency == "EUR" ? amount : amount * 0.9m;
    }
}
