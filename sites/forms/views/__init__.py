"""The portal's blueprints: sign-in, the portal pages, and the forms themselves."""
