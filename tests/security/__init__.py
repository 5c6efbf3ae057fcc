"""What a malicious or clumsy user cannot do: see hidden information, act for another seat,
post malformed or forged requests, race two tabs or two requests, skip CSRF."""
