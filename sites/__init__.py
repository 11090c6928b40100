"""The mock websites of webenv, one Flask app factory per site.

Each site knows only its own data: it never imports tasks, rewards or perturbations.
"""
