"""The exceptions perfectplay raises beyond the built-in ``ValueError`` and ``TypeError``:
``IllegalPosition`` and ``SearchLimitExceeded`` (both backends raise these very classes),
``InvalidCertificate`` (a proof that does not hold) and
``missing_extra``, the error of an integration whose framework is not installed."""

from perfectplay._kernel.errors import (
    IllegalPosition,
    InvalidCertificate,
    SearchLimitExceeded,
    missing_extra,
)

__all__ = ["IllegalPosition", "InvalidCertificate", "SearchLimitExceeded", "missing_extra"]
