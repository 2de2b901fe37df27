"""A test kit for auth-emulator, the local Firebase Authentication emulator.

    from auth_emulator import Emulator

    with Emulator.start() as emulator:            # or Emulator.attach() to one already running
        minted = emulator.apple.mint("ada@example.com", hide_email=True, nonce="n-1")
        user = emulator.client.sign_in_with_idp(minted)
        message = emulator.outbox.wait_for(user.email)

With pytest the plugin (loaded when the package is installed) gives fixtures instead:
`auth_emulator`, `outbox`, `users`, `apple`, `providers`, `clock`, `auth_client`.
"""

from ._jwt import claims_of
from ._version import __version__
from .client import Client, SignIn, TotpFactor
from .clock import Clock
from .emulator import Emulator, Project
from .errors import EmulatorError, KitError, SeedError, StartError, Unreachable, VersionError, WaitTimeout
from .outbox import Delivery, Message, Outbox, RelaySettings
from .providers import Apple, Facebook, MintedToken, Provider, Providers, RelayAddress, Revocation
from .totp import totp_code
from .users import LinkedProvider, User, Users

__all__ = [
    "Apple", "Client", "Clock", "Delivery", "Emulator", "EmulatorError", "Facebook", "KitError", "LinkedProvider",
    "Message", "MintedToken", "Outbox", "Project", "Provider", "Providers", "RelayAddress", "RelaySettings",
    "Revocation", "SeedError", "SignIn", "StartError", "TotpFactor", "Unreachable", "User", "Users",
    "VersionError", "WaitTimeout", "__version__", "claims_of", "totp_code",
]
