"""Numeric cross-checks: numpy always, torch when installed; Monte Carlo with real vectors."""
