import { useState } from 'react';
import { Box, Button, Card, CardContent, TextField, Typography } from '@mui/material';
import { useLogin, useNotify } from 'react-admin';
import { useLocation } from 'react-router-dom';

// Where a login without a page to return to lands: the first resource, directly (via "/" it took
// two redirects, issue 17).
const FIRST_PAGE = '/documents';

/**
 * Log in with an API token (the admin's printed once at first start, or one from createUser), then
 * go back to the page the session ended on, or to the first resource.
 */
export function LoginPage() {
  const [token, setToken] = useState('');
  const login = useLogin();
  const notify = useNotify();
  const state = useLocation().state as { nextPathname?: string; nextSearch?: string } | null;
  const next = state?.nextPathname && state.nextPathname !== '/' ? `${state.nextPathname}${state.nextSearch ?? ''}` : FIRST_PAGE;
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', mt: 12 }}>
      <Card sx={{ width: 420 }}>
        <CardContent>
          <Typography variant="h5" gutterBottom>Vance admin</Typography>
          <form onSubmit={(e) => { e.preventDefault(); login({ token }, next).catch((err: Error) => notify(err.message, { type: 'error' })); }}>
            <TextField fullWidth type="password" label="API token" value={token} onChange={(e) => setToken(e.target.value)} name="token" autoFocus margin="normal" />
            <Button type="submit" variant="contained" fullWidth>Log in</Button>
          </form>
        </CardContent>
      </Card>
    </Box>
  );
}
