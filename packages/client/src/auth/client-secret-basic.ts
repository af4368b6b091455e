import type * as oauth from 'oauth4webapi';

/**
 * `client_secret_basic` with `encodeURIComponent` for the form encoding RFC 6749 §2.3.1 asks for.
 * oauth4webapi also escapes the unreserved `-`, `.`, `_`, `~` (as `%2D`, …), which many
 * authorization servers (the conformance suite's among them) do not decode, so a client ID like
 * `my-client` would be refused. encodeURIComponent leaves exactly those characters as they are.
 */
export function clientSecretBasic(clientSecret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    const credentials = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(clientSecret)}`;
    headers.set('authorization', `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`);
  };
}
