"""The conformance vector generator (`make vectors`): not shipped, it reads the checkout."""
