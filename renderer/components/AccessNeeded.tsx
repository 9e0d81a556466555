// The page a browser shows when it reached `session-vault serve` without this run's access token: which address to open instead.
export function AccessNeeded() {
  return (
    <main className="access-needed" role="alert" data-testid="access-needed">
      <h1>Open the address with its access token</h1>
      <p>
        Session Vault answers only the address it printed when it started: it ends in <code>?token=…</code>, a token made for that run.
      </p>
      <p>
        Look in the terminal where you ran <code>session-vault serve</code> (or <code>npm start</code>) for the line “Session Vault is running at
        http://127.0.0.1:…/?token=…” and open that address. A server started again makes a new token.
      </p>
    </main>
  );
}
