import { useState } from 'react';
import { Box, Button, Card, CardContent, TextField, Typography } from '@mui/material';
import { useLogin, useNotify } from 'react-admin';

/** Log in with an API token (the admin's printed once at first start, or one from createUser). */
export function LoginPage() {
  const [token, setToken] = useState('');
  const login = useLogin();
  const notify = useNotify();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', mt: 12 }}>
      <Card sx={{ width: 420 }}>
        <CardContent>
          <Typography variant="h5" gutterBottom>Vance admin</Typography>
          <form onSubmit={(e) => { e.preventDefault(); login({ token }).catch((err: Error) => notify(err.message, { type: 'error' })); }}>
            <TextField fullWidth type="password" label="API token" value={token} onChange={(e) => setToken(e.target.value)} name="token" autoFocus margin="normal" />
            <Button type="submit" variant="contained" fullWidth>Log in</Button>
          </form>
        </CardContent>
      </Card>
    </Box>
  );
}
